import { timingSafeEqual } from 'node:crypto';
import { Buffer } from 'node:buffer';

/** Which configured key a request's key is: its index, or -1 when it is none of them. */
export type KeyChecker = (given: string | undefined) => number;

/** Keys are compared in buffers at least this wide, so a comparison takes as long whatever the key's length. */
const MIN_WIDTH = 256;

/**
 * The one key check of the mock, shared by the auth middleware and the response cache of the node:http
 * listener: which of `keys` a given key is, in constant time. Each side is written into a zeroed buffer of
 * one fixed width (the longest key, at least MIN_WIDTH bytes) and every key is compared in full with
 * timingSafeEqual, lengths apart, so timing reveals neither a key's length nor which one matched. (Hashing
 * both sides gave the same guarantee at four times the cost, paid on every request.)
 */
export function keyChecker(keys: readonly string[]): KeyChecker {
  if (keys.length === 0 || keys.some((key) => key.length === 0)) throw new Error('API keys must be non-empty strings');
  const width = Math.max(MIN_WIDTH, ...keys.map((key) => Buffer.byteLength(key, 'utf8')));
  const expected = keys.map((key) => {
    const padded = Buffer.alloc(width);
    return { padded, length: padded.write(key, 'utf8') };
  });
  // Reused by every check: a check runs to its end synchronously.
  const given = Buffer.alloc(width);
  return (value) => {
    if (!value) return -1;
    const written = given.write(value, 'utf8');
    given.fill(0, written);
    // write() cuts a value too long for the width, at a character's end (up to 3 bytes short of it): the
    // full length of such a value tells it from every key.
    const length = written < width - 3 ? written : Buffer.byteLength(value, 'utf8');
    let found = -1;
    for (let index = 0; index < expected.length; index += 1) {
      const key = expected[index]!;
      const same = timingSafeEqual(given, key.padded);
      if (same && length === key.length) found = index;
    }
    return found;
  };
}
