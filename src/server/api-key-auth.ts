import type { MiddlewareHandler } from 'hono';
import { keyChecker } from './key-checker.ts';
import { PROBLEMS, problem } from './problem.ts';

/**
 * Checks the API key header against the configured keys in constant time (see keyChecker). The key
 * itself is never logged or echoed.
 */
export function apiKeyAuth(header: string, keys: readonly string[]): MiddlewareHandler {
  const known = keyChecker(keys);
  return async (c, next) => {
    if (!known(c.req.header(header))) {
      return problem(c, PROBLEMS.unauthorized, `Send a valid key in the ${header} header.`);
    }
    await next();
  };
}
