import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Mock } from './create-app.ts';

/**
 * The node:http request listener of a mock: its fast path for cached answers, then the full app.
 * With `log`, one line per request (method, path and query, status, duration); headers, and so the
 * key, are never logged.
 */
export function nodeListener(mock: Mock, log?: (line: string) => void) {
  const slow = getRequestListener(mock.app.fetch);
  return (request: IncomingMessage, response: ServerResponse): void => {
    if (log) {
      const started = performance.now();
      response.once('finish', () =>
        log(`${request.method} ${request.url} ${response.statusCode} ${(performance.now() - started).toFixed(1)}ms`),
      );
    }
    if (!mock.fastPath(request, response)) void slow(request, response);
  };
}
