// The text of a UTF-8 JSON file, for JSON.parse. One character outside ASCII anywhere in the file (a
// mod's display name with an accent: full Py's FactorioLab set has 322 such bytes in 4 MB) makes V8
// decode the whole file into a two-byte string, and decoding and parsing it then take up to twice as
// long (measured on the Py dump: 16 MB, 200–240 ms as UTF-8, 110–145 ms this way). JSON can hold such
// a character only inside a string, where `\uXXXX` means the very same character, so the file is read
// as one-byte text with each of them written that way: JSON.parse gives back exactly what it gives for
// the UTF-8 text. Outside a string the text was not JSON anyway: `parseJsonFile` then parses the UTF-8
// text, so the syntax error it throws names the file's own positions.
//
// A file read with `readJsonFile` has room after its bytes, and the escapes are written into the
// bytes themselves: the text is then the one copy the string needs. (Escaped into a new text, the
// file passed through three 4 MB copies of fresh memory on full Py, each ~10 ms of page faults here.)
import fs from 'node:fs';
import { isAscii } from 'node:buffer';

/** Room read files get after their bytes: enough to escape 32,000 non-ASCII bytes in place. */
const ROOM = 64 * 1024;
/** Bytes checked at a time for a non-ASCII one: the native check skips the clean stretches. */
const STRETCH = 4096;

/** Memory of files read by readJsonFile (theirs alone, with the room after the bytes), and each file's path. */
const withRoom = new WeakMap<ArrayBufferLike, string>();

/** A JSON file's bytes, with room after them (in the same memory) for jsonText to escape in place. */
export function readJsonFile(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.allocUnsafeSlow(size + ROOM);
    withRoom.set(buf.buffer, file);
    let read = 0;
    for (let n; read < size && (n = fs.readSync(fd, buf, read, size - read, read)) > 0; ) read += n;
    return buf.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** One run of non-ASCII bytes as `\uXXXX` escapes of the UTF-16 units they decode to. */
function escapeRun(run: Buffer): string {
  const s = run.toString('utf8');
  let out = '';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** Where the runs of non-ASCII bytes are: start and end of each, in order. */
function nonAsciiRuns(buf: Buffer): number[] {
  const runs: number[] = [];
  let at = 0;
  while (at < buf.length) {
    const end = Math.min(at + STRETCH, buf.length);
    if (isAscii(buf.subarray(at, end))) {
      at = end;
      continue;
    }
    while (buf[at] < 0x80) at++;
    let runEnd = at + 1;
    while (runEnd < buf.length && buf[runEnd] >= 0x80) runEnd++;
    runs.push(at, runEnd);
    at = runEnd;
  }
  return runs;
}

/** The one-byte text of `buf` with its non-ASCII characters escaped; changes `buf` when it came from readJsonFile. */
export function jsonText(buf: Buffer): string {
  if (isAscii(buf)) return buf.toString('latin1');
  const runs = nonAsciiRuns(buf);
  const escapes: string[] = [];
  let growth = 0;
  for (let r = 0; r < runs.length; r += 2) {
    const escaped = escapeRun(buf.subarray(runs[r], runs[r + 1]));
    escapes.push(escaped);
    growth += escaped.length - (runs[r + 1] - runs[r]);
  }
  if (withRoom.has(buf.buffer) && growth <= buf.buffer.byteLength - buf.byteOffset - buf.length) {
    // From the last run back: the bytes after a run move right by the growth of the runs up to it.
    const text = Buffer.from(buf.buffer, buf.byteOffset, buf.length + growth);
    let shift = growth;
    let end = buf.length;
    for (let r = runs.length - 2; r >= 0; r -= 2) {
      const [start, stop] = [runs[r], runs[r + 1]];
      const escaped = escapes[r / 2];
      text.copyWithin(stop + shift, stop, end);
      shift -= escaped.length - (stop - start);
      text.write(escaped, start + shift, 'latin1');
      end = start;
    }
    return text.toString('latin1');
  }
  const pieces: string[] = [];
  let from = 0;
  for (let r = 0; r < runs.length; r += 2) {
    pieces.push(buf.toString('latin1', from, runs[r]), escapes[r / 2]);
    from = runs[r + 1];
  }
  pieces.push(buf.toString('latin1', from));
  return pieces.join('');
}

/** A file that is not JSON, with its UTF-8 text for saying where it breaks. */
export class JsonFileError extends Error {
  constructor(
    message: string,
    readonly text: string,
  ) {
    super(message);
  }
}

/**
 * JSON.parse of a UTF-8 JSON file's bytes (through jsonText), which it changes when they came from
 * readJsonFile: hash them first. A syntax error is the UTF-8 text's, thrown as a JsonFileError; a
 * file read by readJsonFile is read again for it, as its bytes may have been changed (a refused file
 * only: not worth a second look over the bytes for whether they were).
 */
export function parseJsonFile(buf: Buffer): unknown {
  try {
    return JSON.parse(jsonText(buf));
  } catch {
    const file = withRoom.get(buf.buffer);
    const text = (file === undefined ? buf : fs.readFileSync(file)).toString('utf8');
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new JsonFileError((err as Error).message, text);
    }
  }
}
