// How a request reaches the target: undici over the network, or an in-process fetch; both give a body to pull
// chunks from.
import diagnostics from 'node:diagnostics_channel';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { FetchLike } from '../types.ts';
import { CLOSED_BY_TARGET, describeNetworkError } from './network-error.ts';

let sharedDispatcher: Dispatcher | undefined;

/** The dispatcher every client shares unless given one: made on first use, so importing the kit opens nothing. */
export function defaultDispatcher(): Dispatcher {
  sharedDispatcher ??= new EnvHttpProxyAgent();
  return sharedDispatcher;
}

export interface BodySource {
  /** The next chunk, or undefined at the end. */
  next(): Promise<Uint8Array | undefined>;
  /** Stops reading and releases the connection (an unread rest is never downloaded). */
  stop(): void;
}

export interface Answer {
  readonly status: number;
  /** Names lower-cased, repeated headers joined. */
  readonly headers: Record<string, string>;
  readonly body: BodySource;
  /** The process's number of the connection the request went on, unique across transports; absent in-process. */
  readonly connection?: number;
}

/** A request being made, to learn the connection undici sends it on. */
interface Tag {
  connection?: number;
  /** The connection had carried a request before this one (kept alive). */
  reused?: boolean;
  readonly numberOf: (socket: object) => number;
}

/** The request being made right now: undici creates its own request synchronously within the call. */
let making: Tag | undefined;
const tags = new WeakMap<object, Tag>();
/** Sockets that carried a request. */
const carried = new WeakSet<object>();
let listening = false;

/**
 * Follows undici's own diagnostics (request created, headers sent on a socket) to tell which connection each
 * request went on: evidence when answers to one request differ by connection (a balancer pinning connections to
 * replicas, or a server keeping state per connection).
 */
function followConnections(): void {
  if (listening) return;
  listening = true;
  diagnostics.subscribe('undici:request:create', (message) => {
    const { request } = message as { request: object };
    if (making) tags.set(request, making);
  });
  diagnostics.subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as { request: object; socket: object };
    const tag = tags.get(request);
    if (!tag) return;
    tag.reused = carried.has(socket);
    carried.add(socket);
    tag.connection = tag.numberOf(socket);
  });
}

/** `written`: the path and query to send as they are, instead of `url`'s. */
export type Transport = (
  url: URL,
  method: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  written?: string,
) => Promise<Answer>;

// One numbering for every transport of the process: a connection of its own (an undici Client beside the pool)
// must not share a number with one of the pool's, or two connections would read as one.
const sockets = new WeakMap<object, number>();
let opened = 0;
const numberOf = (socket: object): number => {
  const known = sockets.get(socket);
  if (known !== undefined) return known;
  opened += 1;
  sockets.set(socket, opened);
  return opened;
};

/** Times a request goes out at most while each kept-alive connection it went on was closed before an answer. */
const MAX_SENDS = 8;

/**
 * Requests over undici's `dispatcher`. With `resendOnReuse` (a pool: a connection of its own must stay that one), a
 * request whose kept-alive connection the target closed before any answer is sent again: the target closed it as
 * idle as the request went out (a server's keep-alive timeout, late when its event loop was busy, closes every idle
 * connection at once), and never read the request; Go's client does the same. Closed on a new connection, or
 * {@link MAX_SENDS} times, the error stands.
 *
 * @example
 * const transport = undiciTransport(defaultDispatcher(), { resendOnReuse: true });
 */
export function undiciTransport(dispatcher: Dispatcher, options: { readonly resendOnReuse?: boolean } = {}): Transport {
  followConnections();
  return async (url, method, headers, signal, written) => {
    for (let sends = 1; ; sends += 1) {
      const tag: Tag = { numberOf };
      try {
        return await sendOnce(dispatcher, tag, { url, method, headers, signal, written });
      } catch (error) {
        const idle = tag.reused && !signal.aborted && describeNetworkError(error).startsWith(CLOSED_BY_TARGET);
        if (!options.resendOnReuse || !idle || sends >= MAX_SENDS) throw error;
      }
    }
  };
}

/** One request over `dispatcher`, `tag` told its connection. */
async function sendOnce(
  dispatcher: Dispatcher,
  tag: Tag,
  sent: { url: URL; method: string; headers: Record<string, string>; signal: AbortSignal; written: string | undefined },
): Promise<Answer> {
  const { url, method, headers, signal, written } = sent;
  // undici's request() follows no redirect and applies no bad-port list; its own timeouts are off
  // because ours (covering headers and body) aborts through the signal. A path as written goes through the
  // dispatcher itself, which sends it unparsed.
  const common = { method: method as Dispatcher.HttpMethod, headers, signal, headersTimeout: 0, bodyTimeout: 0 };
  making = tag;
  let sending: Promise<Dispatcher.ResponseData>;
  try {
    sending = written ? dispatcher.request({ ...common, origin: url.origin, path: written }) : request(url, { ...common, dispatcher });
  } finally {
    making = undefined;
  }
  const response = await sending;
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  // Destroying a body undici has not finished errors it ("Request aborted"): expected, not a crash.
  response.body.on('error', () => undefined);
  const iterator = response.body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return {
    status: response.statusCode,
    headers: flat,
    ...(tag.connection !== undefined ? { connection: tag.connection } : {}),
    body: {
      next: async () => {
        const step = await iterator.next();
        return step.done ? undefined : step.value;
      },
      stop: () => response.body.destroy(),
    },
  };
}

export function fetchTransport(fetch: FetchLike): Transport {
  return async (url, method, headers, signal, written) => {
    if (written) throw new Error('a path sent as written needs a network target');
    const response = await fetch(new Request(url, { method, headers, redirect: 'manual', signal }));
    const reader = response.body?.getReader();
    // An in-process body does not listen to the request's signal: the read races it instead.
    const aborted = rejection(signal);
    const stop = () => void reader?.cancel().catch(() => undefined);
    signal.addEventListener('abort', stop, { once: true });
    return {
      status: response.status,
      headers: Object.fromEntries([...response.headers].map(([n, v]) => [n.toLowerCase(), v])),
      body: {
        next: async () => {
          if (!reader) return undefined;
          const step = await Promise.race([reader.read(), aborted]);
          return step.done ? undefined : step.value;
        },
        stop,
      },
    };
  };
}

/** A promise rejected when `signal` aborts (never resolved), to race with work that ignores the signal. */
export function rejection(signal: AbortSignal): Promise<never> {
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined); // handled by whoever races it; unraced, it must not be "unhandled"
  return aborted;
}
