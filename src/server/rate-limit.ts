import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { requestHeader } from '../http/request-header.ts';
import type { Operation } from '../spec/operations.ts';
import { operationProblem, problem } from '../http/problem.ts';

/**
 * At most `perSecond` requests per key in each one-second window, else 429 with Retry-After. Runs
 * after auth, so only known keys get a window; keys are held as hashes, never as themselves.
 */
export function rateLimit(perSecond: number, operation: Operation, now: () => number = Date.now): MiddlewareHandler {
  const header = operation.apiKeyHeader ?? '';
  const template = operationProblem(operation, 429);
  const windows = new Map<string, { start: number; count: number }>();
  return async (c, next) => {
    const key = createHash('sha256')
      .update(requestHeader(c, header) ?? '')
      .digest('base64');
    const time = now();
    const start = time - (time % 1000);
    const window = windows.get(key);
    if (!window || window.start !== start) windows.set(key, { start, count: 1 });
    else window.count += 1;
    const count = windows.get(key)!.count;
    if (count <= perSecond) return next();
    return problem(c, template, `More than ${perSecond} requests per second for this key.`, {
      headers: { 'Retry-After': '1' },
    });
  };
}
