import type { IncomingMessage, ServerResponse } from 'node:http';
// Imported: Node's global `performance` is a getter, looked up on every use.
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import type { HideKeys } from './hide-keys.ts';

/**
 * `compact`: one line per request for people (`GET /alert?page=2 200 0.4ms`, or `GET /alert 200 replayed`).
 * `json`: one pino JSON object per line.
 */
export type LogFormat = 'compact' | 'json';

/** The log formats, for option parsing. */
export const LOG_FORMATS: readonly LogFormat[] = ['compact', 'json'];

/** Where log lines go: standard output (buffered, written off the request path), or a function (tests). */
export type LogSink = 'stdout' | ((line: string) => void);

/**
 * What one line says of a request: never a header (where the key belongs). The URL comes with the keys to
 * hide in it; the time in tenths of a millisecond, or `replayed` for an answer the response cache wrote.
 */
type LineWriter = (method: string, url: string, keys: HideKeys, status: number | 'aborted', tenths: number | 'replayed') => void;

/** What the listener calls for each request (see requestLog). */
export interface RequestLog {
  /**
   * Called as the app takes a request: logs it when its response closes, however it ends (an answer, a
   * dropped connection), with the time since.
   */
  readonly watch: (request: IncomingMessage, response: ServerResponse) => void;
  /**
   * Logs a request whose stored answer was just replayed, written whole: no listener is needed, and it
   * is `aborted` only if its connection was already gone.
   */
  readonly replayed: (request: IncomingMessage, response: ServerResponse) => void;
}

/**
 * The request log of `tempmon serve` and `tempmon proxy`, written through pino's destination: standard
 * output is written asynchronously in batches (sonic-boom), so a request never waits on the terminal.
 * `json` is pino's own format (level, time, method, url, status, ms); `compact` formats the same entry
 * as one short line. A request the app answers is logged when its response closes, so one whose
 * connection dropped is logged too, with the time since the app took it. A replayed answer is logged
 * at once, as `replayed` (`replayed: true` in JSON) instead of a time: it is written within the
 * listener's call, in microseconds, and its two clock reads were the log's largest cost (docs/performance.md
 * has the figures). Keys `hide` knows are hidden in the URL
 * (a client may send the key in the query); `hide` may depend on the request (the proxy hides the key
 * each sent).
 */
export function requestLog(format: LogFormat, sink: LogSink, hide: (request: IncomingMessage) => HideKeys): RequestLog {
  // The same URLs come again and again: their hidden form is remembered while the keys stay the same.
  // A plain memo, emptied when full or when the keys change, rather than an LRU: a lookup costs a
  // Map's, and a stream of URLs never seen twice (a fresh search each request) costs no eviction.
  let hidden = new Map<string, string>();
  let hiddenBy: HideKeys | undefined;
  const hideUrl = (keys: HideKeys, url: string): string => {
    if (keys !== hiddenBy || hidden.size >= HIDDEN_URLS) {
      hidden = new Map();
      hiddenBy = keys;
    }
    let text = hidden.get(url);
    if (text === undefined) {
      text = keys(url);
      hidden.set(url, text);
    }
    return text;
  };
  const write = lineWriter(format, sink, hideUrl);
  const log = (request: IncomingMessage, status: number | 'aborted', tenths: number | 'replayed') =>
    write(request.method ?? '-', request.url ?? '/', hide(request), status, tenths);
  return {
    watch: (request, response) => {
      const started = performance.now();
      // `on`, not `once`: a response closes once, and `once` wraps every listener in a bound function.
      response.on('close', () =>
        log(request, response.writableFinished ? response.statusCode : 'aborted', Math.round((performance.now() - started) * 10)),
      );
    },
    replayed: (request, response) => log(request, response.destroyed ? 'aborted' : response.statusCode, 'replayed'),
  };
}

/** URLs whose hidden form the log remembers. */
const HIDDEN_URLS = 1024;

function lineWriter(format: LogFormat, sink: LogSink, hideUrl: (keys: HideKeys, url: string) => string): LineWriter {
  const destination = sink === 'stdout' ? stdout() : { write: (chunk: string) => sink(chunk.replace(/\n$/, '')) };
  if (format === 'json') {
    const logger = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
    return (method, url, keys, status, tenths) => {
      const entry = { method, url: hideUrl(keys, url), status };
      logger.info(tenths === 'replayed' ? { ...entry, replayed: true } : { ...entry, ms: tenths / 10 });
    };
  }
  // A request like the one before it (a replayed page, request after request) gets the same line, the
  // very string: nothing to hide, format or join anew.
  let last = {
    method: '',
    url: '',
    keys: undefined as HideKeys | undefined,
    status: 0 as number | 'aborted',
    tenths: -1 as number | 'replayed',
    text: '',
  };
  return (method, url, keys, status, tenths) => {
    if (url !== last.url || keys !== last.keys || method !== last.method || status !== last.status || tenths !== last.tenths) {
      const time = tenths === 'replayed' ? tenths : `${(tenths / 10).toFixed(1)}ms`;
      last = { method, url, keys, status, tenths, text: `${method} ${hideUrl(keys, url)} ${status} ${time}\n` };
    }
    destination.write(last.text);
  };
}

/**
 * Lines are handed to standard output in chunks of about this many characters (a pipe's capacity)...
 * Each chunk is one write on libuv's thread pool, and that hand-over, not the write, is what costs: small
 * chunks made the log a large share of a replayed page's CPU (docs/performance.md). Under load a chunk then fills
 * more slowly than FLUSH_MS passes, so the timer sends it.
 */
const CHUNK = 64 * 1024;
/** ...or this long after the first line of a chunk, so a person watching sees each line at once. */
const FLUSH_MS = 100;

let shared: { write: (line: string) => void } | undefined;

/**
 * One asynchronous destination on standard output per process (sonic-boom, pino's own), fed whole
 * chunks of lines and flushed when the process exits. Lines are gathered here rather than with
 * sonic-boom's minLength, whose every write measures the UTF-8 length of the text it holds: a line
 * then cost as much as the whole chunk before it (a tenth of a replayed request's time at 4 KiB).
 */
function stdout(): { write: (line: string) => void } {
  if (!shared) {
    const destination = pino.destination({ dest: 1, sync: false });
    const lines: string[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      if (lines.length === 0) return;
      destination.write(lines.join(''));
      lines.length = 0;
      size = 0;
    };
    process.once('exit', () => {
      flush();
      destination.flushSync();
    });
    shared = {
      write: (line) => {
        lines.push(line);
        size += line.length;
        if (size >= CHUNK) flush();
        else timer ??= setTimeout(flush, FLUSH_MS).unref();
      },
    };
  }
  return shared;
}
