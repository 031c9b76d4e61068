import type { Context, MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's URL, parsed once by {@link validHost} for the routes after it. */
    requestUrl: URL | undefined;
  }
}
import { hideKeysIn } from './hide-keys.ts';
import { PROBLEMS, problem } from './problem.ts';
import { parsedUrl, pathAndQuery } from './request-url.ts';

/**
 * Refuses a request whose Host (or absolute-form target) makes no valid URL with 400 problem+json, and
 * logs why. Placed first after CORS, so every route after it may parse the URL, and the refusal carries
 * CORS headers like any other answer. The parsed URL is left in the context (`requestUrl`).
 */
export function validHost(log: (line: string) => void = (line) => console.error(line)): MiddlewareHandler {
  const refuse = async (c: Context) => {
    const hide = hideKeysIn(c);
    const host = hide(c.req.header('host') ?? '(none)');
    log(`tempmon: refused ${c.req.method} ${hide(pathAndQuery(c.req.url))}: invalid Host ${JSON.stringify(host.slice(0, 100))}`);
    return problem(c, PROBLEMS.invalidHost, `The Host header ${JSON.stringify(host.slice(0, 100))} does not make a valid URL.`);
  };
  // Not async: next()'s promise is returned as it is, one promise and one await fewer per request.
  return (c, next) => {
    const url = parsedUrl(c.req.url);
    if (!url) return refuse(c);
    c.set('requestUrl', url);
    return next();
  };
}
