import type { Hono } from 'hono';
import { honoPath, type Operation } from '../spec/operations.ts';
import { PROBLEMS, problem } from './problem.ts';

/**
 * Answers any other method on an operation's path with 405 problem+json and an Allow header read from the
 * methods the spec has there (HEAD with GET, OPTIONS for CORS), for the mock and the proxy alike. Add it
 * after the operations' own routes.
 */
export function addMethodNotAllowed(app: Hono, operations: readonly Operation[]): void {
  const methods = new Map<string, string[]>();
  for (const op of operations) methods.set(op.path, [...(methods.get(op.path) ?? []), op.method.toUpperCase()]);
  for (const [path, allowed] of methods) {
    const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    app.all(honoPath(path), (c) =>
      problem(c, PROBLEMS.methodNotAllowed, `${c.req.method} is not allowed on ${path}; use ${allowed.join(' or ')}.`, {
        headers: { Allow: allow },
      }),
    );
  }
}
