// Reading a journal file's bytes in tests: where its frames end inside the zero-filled reserve.

/** Index just past the last non-zero byte: where the frames end inside the preallocated file. */
export function framesEnd(buf: Buffer): number {
  let end = buf.length;
  while (end > 0 && buf[end - 1] === 0) end--;
  return end;
}
