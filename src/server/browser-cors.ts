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
 * header the spec names (and Prefer), responses expose the headers the spec documents.
 */
export function browserCors(operations: readonly Operation[]): MiddlewareHandler {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: [...apiKeyHeaders(operations), 'Content-Type', 'Prefer'],
    exposeHeaders: exposedHeaders(operations),
    maxAge: 600,
  });
}
