import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Mock } from './create-app.ts';
import { requestLog } from './request-log.ts';

/**
 * The node:http request listener of a mock: its fast path for cached answers, then the full app.
 * With `log`, one line per request (see requestLog): the configured keys never appear in it.
 */
export function nodeListener(mock: Mock, log?: (line: string) => void) {
  const slow = getRequestListener(mock.app.fetch);
  const logRequest = log ? requestLog(log, () => mock.hideKeys) : undefined;
  return (request: IncomingMessage, response: ServerResponse): void => {
    logRequest?.(request, response);
    if (!mock.fastPath(request, response)) void slow(request, response);
  };
}
