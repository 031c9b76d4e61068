import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { PROBLEMS, problem } from './problem.ts';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Checks the API key header against the configured keys in constant time: both sides are hashed to a
 * fixed length, and every key is compared, so timing reveals neither a key's length nor which matched.
 * The key itself is never logged or echoed.
 */
export function apiKeyAuth(header: string, keys: readonly string[]): MiddlewareHandler {
  if (keys.length === 0 || keys.some((key) => key.length === 0)) throw new Error('API keys must be non-empty strings');
  const expected = keys.map(digest);
  return async (c, next) => {
    const given = c.req.header(header);
    let ok = false;
    if (given) {
      const actual = digest(given);
      for (const key of expected) ok = timingSafeEqual(actual, key) || ok;
    }
    if (!ok) {
      return problem(c, PROBLEMS.unauthorized, `Send a valid key in the ${header} header.`);
    }
    await next();
  };
}
