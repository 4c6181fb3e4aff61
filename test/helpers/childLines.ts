// Line-by-line reading of a child process's output, for tests that drive a writer by what it prints.
import type { Readable } from 'node:stream';

export function eachLine(stream: Readable, onLine: (line: string) => void): void {
  let buf = '';
  stream.on('data', (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      onLine(line);
    }
  });
}
