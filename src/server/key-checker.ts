import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Which configured key a request's key is: its index, or -1 when it is none of them. */
export type KeyChecker = (given: string | undefined) => number;

/**
 * The one key check of the mock, shared by the auth middleware and the response cache of the node:http
 * listener: which of `keys` a given key is, in constant time. Both sides are hashed to a fixed length and
 * every key is compared, so timing reveals neither a key's length nor which one matched.
 */
export function keyChecker(keys: readonly string[]): KeyChecker {
  if (keys.length === 0 || keys.some((key) => key.length === 0)) throw new Error('API keys must be non-empty strings');
  const expected = keys.map(digest);
  return (given) => {
    if (!given) return -1;
    const actual = digest(given);
    let found = -1;
    for (const [index, key] of expected.entries()) if (timingSafeEqual(actual, key)) found = index;
    return found;
  };
}
