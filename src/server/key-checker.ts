import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether a given key is one of `keys`, in constant time: both sides are hashed to a fixed length and
 * every key is compared, so timing reveals neither a key's length nor which one matched.
 */
export function keyChecker(keys: readonly string[]): (given: string | undefined) => boolean {
  if (keys.length === 0 || keys.some((key) => key.length === 0)) throw new Error('API keys must be non-empty strings');
  const expected = keys.map(digest);
  return (given) => {
    if (!given) return false;
    const actual = digest(given);
    let ok = false;
    for (const key of expected) ok = timingSafeEqual(actual, key) || ok;
    return ok;
  };
}
