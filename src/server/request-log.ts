import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HideKeys } from './hide-keys.ts';

/**
 * Logs one line per request when its response finishes: method, path and query, status, duration.
 * Headers (where the key belongs) are never logged, and the URL goes through `hide`, for a client that
 * sends its key in the query. `hide` may depend on the request (the proxy hides the key each one sent).
 */
export function requestLog(log: (line: string) => void, hide: (request: IncomingMessage) => HideKeys) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const started = performance.now();
    response.once('finish', () =>
      log(`${request.method} ${hide(request)(request.url ?? '/')} ${response.statusCode} ${(performance.now() - started).toFixed(1)}ms`),
    );
  };
}
