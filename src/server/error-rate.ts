import type { MiddlewareHandler } from 'hono';
import type { Operation } from '../spec/operations.ts';
import { operationProblem, problem } from '../http/problem.ts';
import type { RandomStream } from './random-stream.ts';

/**
 * Fails a share of requests with 500 or 503 (both with Retry-After), chosen by a seeded stream: the
 * same seed and request order fail the same requests, so a flaky session can be replayed.
 */
export function errorRate(rate: number, random: RandomStream, operation: Operation): MiddlewareHandler {
  const [internal, unavailable] = [operationProblem(operation, 500), operationProblem(operation, 503)];
  return async (c, next) => {
    if (random.next() >= rate) return next();
    const template = random.next() < 0.5 ? internal : unavailable;
    const retryAfter = String(random.int(1, 5));
    return problem(c, template, `Injected by --error-rate ${rate}; retry after ${retryAfter} s.`, {
      headers: { 'Retry-After': retryAfter },
    });
  };
}
