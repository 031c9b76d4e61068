import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { apiKeyHeaders, type Operation } from '../spec/operations.ts';

/**
 * The response headers a browser app may read: every header the listings document (X-Total-Count, Link,
 * ETag, Retry-After, Preference-Applied...), read from the spec, apart from the CORS headers themselves.
 */
export function exposedHeaders(operations: readonly Operation[]): string[] {
  const names = operations.flatMap((op) => op.responses.flatMap((r) => r.headers));
  return [...new Set(names)].filter((name) => !/^access-control-/i.test(name));
}

/**
 * CORS for browser apps on any origin, shared by the mock and the proxy: preflight allows the key
 * header the spec names (and Prefer), responses expose the headers the spec documents. Hono's cors
 * answers preflight; on every other request the two headers are set on the route's response once it
 * is made. (Hono's cors sets them on `c.res` before the route runs: Hono then rebuilds the route's
 * response around a stream of its body, and @hono/node-server writes that stream chunk by chunk rather
 * than the body at once, which cost a fresh search a fifth of its time.) Answers made outside the app take
 * the same header from problem.ts (OUTSIDE_APP_HEADERS): refused() in node-listener.ts, clientError, the
 * Worker's configuration error.
 */
export function browserCors(operations: readonly Operation[]): MiddlewareHandler {
  const exposed = exposedHeaders(operations);
  const preflight = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: [...apiKeyHeaders(operations), 'Content-Type', 'Prefer'],
    exposeHeaders: exposed,
    maxAge: 600,
  });
  const expose = exposed.join(',');
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    if (expose) c.res.headers.set('Access-Control-Expose-Headers', expose);
  };
}
