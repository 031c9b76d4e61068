/**
 * A 32-bit hash of a few unsigned 32-bit words (murmur3's finalizer after each): the live mode's seeded draws.
 * Integer arithmetic only (Math.imul, shifts), so every runtime gives the same number, and cheap enough to
 * draw a schedule per request without making a record.
 *
 * @example
 * mix(7, 1, 42); // the same on every machine and runtime
 */
export function mix(...words: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const word of words) {
    h = Math.imul(h ^ (word >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** The two words of a non-negative safe integer, low first, for mix. */
export const words = (n: number): [number, number] => [n >>> 0, Math.floor(n / 2 ** 32)];

/**
 * floor(a / b) for non-negative integers below 2^53: exact, since a correctly rounded quotient of such
 * integers never rounds up to the next integer.
 */
export const div = (a: number, b: number): number => Math.floor(a / b);
