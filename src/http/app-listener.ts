import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { discardBody } from './discard-body.ts';
import type { HideKeys } from './hide-keys.ts';
import { holdTickObject } from './hold-tick-object.ts';
import { OUTSIDE_APP_HEADERS, PROBLEMS, problemBody } from './problem.ts';
import { type LogFormat, type LogSink, requestLog } from './request-log.ts';

/** How the listener logs requests (see requestLog). */
export interface ListenerLog {
  readonly format: LogFormat;
  readonly sink: LogSink;
}

/** What the listener serves: a fetch handler, how to hide keys in a text about a request, a replay. */
export interface ListenedApp {
  readonly fetch: (request: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => Response | Promise<Response>;
  readonly hideKeysOf: (request: IncomingMessage) => HideKeys;
  /** Answers from a cache before any Fetch API object is made; false when the app must answer. */
  readonly replay?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

/**
 * The node:http request listener of the mock and the proxy: the replay of a stored answer, else the app
 * through @hono/node-server, whose refusals get problem+json (see refused) and whose unread request
 * bodies are dropped without closing a kept-alive connection (see discardBody). With `log`, one line per
 * request (see requestLog), keys hidden. Holds a tick object so that nextTick stays optimized (see
 * holdTickObject).
 */
export function appListener(target: ListenedApp, log?: ListenerLog) {
  holdTickObject();
  // The request being handed to the adapter: it calls errorHandler synchronously, before its first await,
  // when it cannot make a Request of it. Read only there; undefined otherwise.
  let current: IncomingMessage | undefined;
  // autoCleanupIncoming off: discardBody drops an unread request body without closing the connection.
  const app = getRequestListener(target.fetch as Parameters<typeof getRequestListener>[0], {
    autoCleanupIncoming: false,
    errorHandler: (error) => refused(error, current, current ? target.hideKeysOf(current) : (text) => text),
  });
  const logged = log ? requestLog(log.format, log.sink, target.hideKeysOf) : undefined;
  return (request: IncomingMessage, response: ServerResponse): void => {
    discardBody(request, response);
    if (target.replay?.(request, response)) {
      // A replay is written whole before replay returns: logged now, without a listener per request.
      logged?.replayed(request, response);
      return;
    }
    logged?.watch(request, response);
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
    headers: OUTSIDE_APP_HEADERS,
  });
}
