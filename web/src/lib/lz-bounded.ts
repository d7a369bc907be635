// Reads lz-string's URI-safe format (what compressToEncodedURIComponent writes) with a limit on
// the decompressed size. lz-string's own decompressor builds the whole output before anyone can
// look at its length, and its format lets a few kilobytes expand quadratically: a 56 KB link can
// hold a 300 MB text. This reader counts while it decodes and stops at the limit.
//
// The format: 6-bit characters read most significant bit first, codes assembled least significant
// bit first; code 0 / 1 = an 8 / 16-bit literal that joins the dictionary, 2 = end, otherwise a
// dictionary index (LZW: the next index itself means previous + its own first character). The
// code width grows by one bit each time the dictionary fills the current width.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

export class DecompressedTooLarge extends Error {
  constructor(public limit: number) {
    super(`decompresses to more than ${limit} characters`);
  }
}

/** The text inside `input`, null if the input is damaged; throws DecompressedTooLarge as soon as
 * the text would exceed `maxChars`. */
export function decompressBounded(input: string, maxChars: number): string | null {
  if (!input) return null;
  const values = new Uint8Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    const v = code === 32 ? VALUE[43] : code < 128 ? VALUE[code] : -1; // a space is a '+' a mail client decoded
    if (v < 0) return null;
    values[i] = v;
  }
  let next = 1; // index of the next character to load
  let val = values[0];
  let position = 32;
  const readBits = (n: number): number => {
    let bits = 0;
    for (let k = 0; k < n; k++) {
      if (val & position) bits |= 1 << k;
      position >>= 1;
      if (position === 0) {
        position = 32;
        val = next < values.length ? values[next] : 0;
        next++;
      }
    }
    return bits;
  };

  const literal = (kind: number) => String.fromCharCode(readBits(kind === 0 ? 8 : 16));
  const first = readBits(2);
  if (first === 2) return '';
  if (first === 3) return null;
  const dict: string[] = ['', '', '', literal(first)];
  let numBits = 3;
  let enlargeIn = 4;
  const grow = () => {
    if (--enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  };
  let w = dict[3];
  const out: string[] = [w];
  let total = w.length;
  for (;;) {
    if (next > values.length) return null; // ran past the end without the end code: cut short
    let code = readBits(numBits);
    if (code === 2) return out.join('');
    if (code < 2) {
      dict.push(literal(code));
      code = dict.length - 1;
      grow();
    }
    let entry: string;
    if (code < dict.length) entry = dict[code];
    else if (code === dict.length) entry = w + w.charAt(0);
    else return null;
    total += entry.length;
    if (total > maxChars) throw new DecompressedTooLarge(maxChars);
    out.push(entry);
    dict.push(w + entry.charAt(0));
    w = entry;
    grow();
  }
}
