import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Mock } from './create-app.ts';
import { discardBody } from './discard-body.ts';
import type { HideKeys } from './hide-keys.ts';
import { PROBLEM_MEDIA_TYPE, PROBLEMS, problemBody } from './problem.ts';
import { type LogFormat, type LogSink, requestLog } from './request-log.ts';

/** How the listener logs requests (see requestLog). */
export interface ListenerLog {
  readonly format: LogFormat;
  readonly sink: LogSink;
}

/**
 * The node:http request listener of a mock: the replay of the app's stored answer to the same request,
 * else the app. With `log`, one line per request (see requestLog): the configured keys never appear in it.
 */
export function nodeListener(mock: Mock, log?: ListenerLog) {
  // The request being handed to the adapter: it calls errorHandler synchronously, before its first await,
  // when it cannot make a Request of it. Read only there; undefined otherwise.
  let current: IncomingMessage | undefined;
  // autoCleanupIncoming off: discardBody drops an unread request body without closing the connection.
  const app = getRequestListener(mock.app.fetch, {
    autoCleanupIncoming: false,
    errorHandler: (error) => refused(error, current, mock.hideKeys),
  });
  const logRequest = log ? requestLog(log.format, log.sink, () => mock.hideKeys) : undefined;
  return (request: IncomingMessage, response: ServerResponse): void => {
    logRequest?.(request, response);
    discardBody(request, response);
    if (mock.replay(request, response)) return;
    current = request;
    void app(request, response);
    current = undefined;
  };
}

/**
 * What @hono/node-server refuses before any app sees it (a Host that is no host, a missing Host, `GET *`,
 * a backslash in the path, an absolute-form target it cannot parse) gets the 400 problem+json the app
 * would send, with CORS, instead of an empty 400; the cause goes to the server's log, keys hidden.
 */
export function refused(error: unknown, request: IncomingMessage | undefined, hide: HideKeys): Response {
  const message = error instanceof Error ? error.message : String(error);
  const host = request?.headers.host;
  const badHost = /host/i.test(message) || (host !== undefined && !URL.canParse(`http://${host}/`));
  const template = badHost ? PROBLEMS.invalidHost : PROBLEMS.invalidRequest;
  const target = request?.url === undefined ? undefined : hide(request.url);
  console.error(`tempmon: refused ${request?.method ?? 'a request'} ${target ?? ''}: ${message}`);
  const detail = badHost
    ? `The Host header ${host === undefined ? 'is missing' : `${JSON.stringify(hide(host).slice(0, 100))} does not name a valid host`} (${message}).`
    : `The request target is not valid (${message}).`;
  // instance only for an origin-form target: an absolute-form or `*` one is no path of ours.
  return new Response(problemBody(template, detail, target?.startsWith('/') ? target : undefined), {
    status: template.status,
    headers: { 'content-type': PROBLEM_MEDIA_TYPE, 'access-control-allow-origin': '*' },
  });
}
