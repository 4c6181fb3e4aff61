// The text of a UTF-8 JSON file, for JSON.parse. One character outside ASCII anywhere in the file (a
// mod's display name with an accent: full Py's FactorioLab set has 322 such bytes in 4 MB) makes V8
// decode the whole file into a two-byte string, and decoding and parsing it then take up to twice as
// long (measured on the Py dump: 16 MB, 200–240 ms as UTF-8, 110–145 ms this way). JSON can hold such
// a character only inside a string, where `\uXXXX` means the very same character, so the file is read
// as one-byte text with each of them written that way: JSON.parse gives back exactly what it gives for
// the UTF-8 text. Outside a string the text was not JSON anyway: `parseJsonFile` then parses the UTF-8
// text, so the syntax error it throws names the file's own positions.
import { isAscii } from 'node:buffer';

/** The bytes of one run of non-ASCII bytes as `\uXXXX` escapes of the UTF-16 units they decode to. */
function escapeRun(run: string): string {
  const s = Buffer.from(run, 'latin1').toString('utf8');
  let out = '';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

export function jsonText(buf: Buffer): string {
  const text = buf.toString('latin1');
  return isAscii(buf) ? text : text.replace(/[\x80-\xff]+/g, escapeRun);
}

/** JSON.parse of a UTF-8 JSON file's bytes (through jsonText); a syntax error is the UTF-8 text's. */
export function parseJsonFile(buf: Buffer): unknown {
  try {
    return JSON.parse(jsonText(buf));
  } catch {
    return JSON.parse(buf.toString('utf8'));
  }
}
