import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Operation } from '../spec/operations.ts';
import { preferencesOf } from '../http/prefer.ts';
import { operationProblem, problem } from '../http/problem.ts';

/** The query parameter that forces a status where a Prefer header is awkward. */
export const FORCE_PARAMETER = '__code';

/** Statuses whose answers tell a client when to come back. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Prism-compatible forcing of an error state: `Prefer: code=503`, or `?__code=503` where a header is
 * awkward (an <img>, a link). Only statuses the spec documents for the operation can be forced; any
 * other preference is ignored, as RFC 7240 asks. It runs before auth, so a UI can show a 401 or 500
 * state without a key.
 */
export function forcedResponse(operation: Operation): MiddlewareHandler {
  // Those with a problem+json body in the spec: a 304 has none to send, a 2xx is not an error state.
  const forcible = new Set(operation.responses.filter((r) => Number(r.status) >= 400 && r.problem).map((r) => Number(r.status)));
  const force = async (c: Context, status: number, preferred: boolean) => {
    const headers: Record<string, string> = {};
    // Appended, so a delay= applied before it stays listed; ?__code= is reported the same way.
    c.header('Preference-Applied', `code=${status}`, { append: true });
    if (RETRY_STATUSES.has(status)) headers['Retry-After'] = '1';
    const how = preferred ? `Prefer: code=${status}` : `${FORCE_PARAMETER}=${status}`;
    return problem(c, operationProblem(operation, status as ContentfulStatusCode), `Forced by ${how}.`, { headers });
  };
  // Not async: next()'s promise is returned as it is, one promise and one await fewer per request.
  return (c, next) => {
    const preferred = preferencesOf(c).get('code');
    const code = preferred ?? c.req.query(FORCE_PARAMETER);
    const status = code !== undefined && /^\d{3}$/.test(code) ? Number(code) : undefined;
    if (status === undefined || !forcible.has(status)) return next();
    return force(c, status, preferred !== undefined);
  };
}
