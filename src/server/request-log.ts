import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import pino from 'pino';
import type { HideKeys } from './hide-keys.ts';

/** `compact`: one line per request for people (`GET /alert?page=2 200 0.4ms`). `json`: one pino JSON object per line. */
export type LogFormat = 'compact' | 'json';

/** The log formats, for option parsing. */
export const LOG_FORMATS: readonly LogFormat[] = ['compact', 'json'];

/** Where log lines go: standard output (buffered, written off the request path), or a function (tests). */
export type LogSink = 'stdout' | ((line: string) => void);

/** What one line says of a request: never a header (where the key belongs). */
interface Entry {
  readonly method: string;
  readonly url: string;
  /** The status sent, or `aborted` when the connection closed before the response was finished. */
  readonly status: number | 'aborted';
  readonly ms: number;
}

/**
 * The request log of `tempmon serve` and `tempmon proxy`, written through pino's destination: standard
 * output is written asynchronously in batches (sonic-boom), so a request never waits on the terminal.
 * `json` is pino's own format (level, time, method, url, status, ms); `compact` formats the same entry
 * as one short line. Returns what to call for each request: it logs when the response closes, so a
 * request whose connection dropped is logged too, and hides the keys `hide` knows in its URL (a client
 * may send the key in the query). `hide` may depend on the request (the proxy hides the key each sent).
 */
export function requestLog(format: LogFormat, sink: LogSink, hide: (request: IncomingMessage) => HideKeys) {
  const write = lineWriter(format, sink);
  // The same URLs come again and again: their hidden form is remembered while the keys stay the same
  // (the mock's always do; the proxy hides each request's own key, so it starts afresh each time).
  const hidden = new LRUCache<string, string>({ max: 1024 });
  let hiddenBy: HideKeys | undefined;
  const hideUrl = (keys: HideKeys, url: string): string => {
    if (keys !== hiddenBy) {
      hidden.clear();
      hiddenBy = keys;
    }
    let text = hidden.get(url);
    if (text === undefined) {
      text = keys(url);
      hidden.set(url, text);
    }
    return text;
  };
  return (request: IncomingMessage, response: ServerResponse): void => {
    const started = performance.now();
    response.once('close', () => {
      write({
        method: request.method ?? '-',
        url: hideUrl(hide(request), request.url ?? '/'),
        status: response.writableFinished ? response.statusCode : 'aborted',
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    });
  };
}

function lineWriter(format: LogFormat, sink: LogSink): (entry: Entry) => void {
  const destination = sink === 'stdout' ? stdout() : { write: (chunk: string) => sink(chunk.replace(/\n$/, '')) };
  if (format === 'json') {
    const logger = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
    return (entry) => logger.info(entry);
  }
  return ({ method, url, status, ms }) => destination.write(`${method} ${url} ${status} ${ms.toFixed(1)}ms\n`);
}

let shared: pino.DestinationStream | undefined;

/** One asynchronous destination on standard output per process, flushed when the process exits. */
function stdout(): pino.DestinationStream {
  if (!shared) {
    // Lines are gathered up to 4 KiB before a write (one syscall per ~60 requests under load), and
    // flushed every 100 ms, so a person watching sees each line at once.
    const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
    process.once('exit', () => destination.flushSync());
    shared = destination;
  }
  return shared;
}
