import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { apiKeyHeaders, type Operation } from '../spec/operations.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * The CORS headers the response still lacks (see browserCors): a route that writes them itself
     * takes them with {@link takeCorsHeaders}.
     */
    corsHeaders: Readonly<Record<string, string>> | undefined;
  }
}

/** What lets a browser app on any origin read an answer: every answer carries it, in or outside the app. */
export const ANY_ORIGIN: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };

/**
 * The CORS headers of the request's answer, for a route that makes its response with them itself:
 * browserCors then adds nothing. Empty where browserCors does not run.
 */
export function takeCorsHeaders(c: Context): Readonly<Record<string, string>> {
  const headers = c.get('corsHeaders');
  c.set('corsHeaders', undefined);
  return headers ?? {};
}

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
 * is made, unless the route made it with them (see takeCorsHeaders). (Hono's cors sets them on `c.res` before the route runs: Hono then rebuilds the route's
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
  const headers: Readonly<Record<string, string>> = {
    ...ANY_ORIGIN,
    ...(expose ? { 'access-control-expose-headers': expose } : {}),
  };
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    c.set('corsHeaders', headers);
    await next();
    const lacking = c.get('corsHeaders');
    if (lacking) for (const name in lacking) c.res.headers.set(name, lacking[name]!);
  };
}
