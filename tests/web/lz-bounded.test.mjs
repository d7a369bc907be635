// The bounded reader of lz-string's URI-safe format (web/src/lib/lz-bounded.ts) against lz-string.
import test from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import { DecompressedTooLarge, decompressBounded } from '../../build/web-lib/lz-bounded.js';

const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = LZString; // a CommonJS module

/** A deterministic pseudo-random text: JSON-like runs, repeats and characters beyond Latin-1. */
function sampleText(seed, length) {
  const pieces = ['{"Id":', '"Op":"ALLOC"', ',', '}', '[', ']', ' ', '\n', 'é', '\u4e2d', '\ud83d\ude00', '0123'];
  let x = seed;
  let out = '';
  while (out.length < length) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += pieces[x % pieces.length];
    if (x % 7 === 0) out += out.slice(-(x % 40));
  }
  return out;
}

test('reads what lz-string writes, as lz-string reads it', () => {
  for (const [seed, length] of [
    [1, 0],
    [2, 1],
    [3, 17],
    [4, 500],
    [5, 20000],
    [6, 200000],
  ]) {
    const text = sampleText(seed, length);
    const packed = compressToEncodedURIComponent(text);
    assert.equal(decompressBounded(packed, Infinity), decompressFromEncodedURIComponent(packed), `seed ${seed}`);
    assert.equal(decompressBounded(packed, text.length), text, 'a limit equal to the length is enough');
  }
});

test('stops at the limit with DecompressedTooLarge', () => {
  const packed = compressToEncodedURIComponent('x'.repeat(1_000_000));
  assert.ok(packed.length < 3000, 'a short input that expands a thousandfold');
  assert.throws(
    () => decompressBounded(packed, 999_999),
    (e) => e instanceof DecompressedTooLarge && e.limit === 999_999,
  );
  assert.equal(decompressBounded(packed, 1_000_000).length, 1_000_000);
});

test('a damaged input is null, not an exception', () => {
  const packed = compressToEncodedURIComponent(sampleText(7, 3000));
  assert.equal(decompressBounded('', 100), null);
  assert.equal(decompressBounded('a#b', 100), null, 'a character outside the alphabet');
  assert.equal(decompressBounded(packed.slice(0, packed.length >> 1), 1e9), null, 'cut short');
});

test('a space reads as the + a mail client decoded it to', () => {
  let packed = '';
  for (let seed = 8; !packed.includes('+'); seed++) packed = compressToEncodedURIComponent(sampleText(seed, 300));
  assert.equal(decompressBounded(packed.replaceAll('+', ' '), 1e9), decompressFromEncodedURIComponent(packed));
});
