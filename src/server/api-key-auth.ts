import type { Context, MiddlewareHandler } from 'hono';
import type { KeyChecker } from './key-checker.ts';
import type { Operation } from '../spec/operations.ts';
import { operationProblem, problem } from '../http/problem.ts';
import { requestHeader } from '../http/request-header.ts';

/**
 * Checks the API key header against the configured keys in constant time (see keyChecker). The key
 * itself is never logged or echoed.
 */
export function apiKeyAuth(header: string, knownKey: KeyChecker, operation: Operation): MiddlewareHandler {
  const template = operationProblem(operation, 401);
  const refuse = async (c: Context) => problem(c, template, `Send a valid key in the ${header} header.`);
  // Not async: next()'s promise is returned as it is, one promise and one await fewer per request.
  return (c, next) => (knownKey(requestHeader(c, header)) < 0 ? refuse(c) : next());
}
