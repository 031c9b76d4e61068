import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { Operation } from '../spec/operations.ts';
import { CORS_RESPONSE_HEADERS } from './fast-path.ts';

/**
 * CORS for browser apps on any origin, shared by the mock and the proxy: preflight allows the key
 * header the spec names (and Prefer), responses expose the listing headers.
 */
export function browserCors(operations: readonly Operation[]): MiddlewareHandler {
  const keyHeaders = [...new Set(operations.flatMap((op) => (op.apiKeyHeader ? [op.apiKeyHeader] : [])))];
  return cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: [...keyHeaders, 'Content-Type', 'Prefer'],
    exposeHeaders: CORS_RESPONSE_HEADERS['access-control-expose-headers']!.split(','),
    maxAge: 600,
  });
}
