import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { AdmissionCache } from '../store/admission-cache.ts';
import type { KeyChecker } from './key-checker.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * Set by a route whose answer depends on nothing but the request's cache key (see createResponseCache),
     * with the body it sent (the text, so the cache need not read the response back).
     */
    cacheable: { readonly body: string } | undefined;
  }
}

/** A response as the app wrote it: status, headers and body bytes, and the data it was made of. */
interface Stored {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly data: string;
}

/** Live data: the clock each request's moment is read from, and the header an answer states it in. */
export interface LiveMoment {
  readonly clock: () => number;
  readonly header: string;
}

/** A connection's last replayed request, as compared with its next one (see createResponseCache). */
interface Asked {
  readonly version: number;
  readonly url: string | undefined;
  /** The key check's verdicts, never a key. */
  readonly keys: string;
  readonly host: string | undefined;
  readonly prefer: IncomingHttpHeaders[string];
  readonly etags: string | undefined;
  readonly data: string;
  readonly hit: Stored;
}

/** Answers kept, and their bytes: a bounded share of memory, whatever the URLs clients send. */
const MAX_ENTRIES = 10_000;
const MAX_BYTES = 64 * 1024 * 1024;
/**
 * Live data: a page's answer is replayed only while its data holds (milliseconds at a fast rate), so only
 * pages asked for again and again (a dashboard's) are worth keeping; the rest would only hold stale bytes.
 */
const LIVE_ENTRIES = 512;
const LIVE_BYTES = 8 * 1024 * 1024;

/** What the node:http listener needs of the cache (see createResponseCache). */
export interface ResponseCache {
  /** App middleware, placed first: stores the response of a request the route marked `cacheable`. */
  readonly capture: MiddlewareHandler;
  /** Replays the stored response of a request, before any Fetch API object is made; false when there is none. */
  readonly replay: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** Live data: the moment replay read for a request it left to the app, which answers for that moment. */
  readonly momentOf: (request: IncomingMessage | undefined) => number | undefined;
}

/**
 * A cache of the app's own responses for the node:http listener: no rule of the app is repeated here.
 * (The app's answer-cache.ts keeps listing answers inside the app, on every runtime; this keeps whole
 * responses, Node only.)
 * The app's routes decide what may be stored (a listing answer when nothing was forced, preferred,
 * delayed or simulated: they set `cacheable`); the listener replays the stored status, headers and
 * bytes for a request with the same key. The key is everything such an answer depends on: the data's
 * identity, the method (HEAD shares GET's answer), Host (the absolute Link), the raw path and query,
 * which configured key the request carries (by the app's own key check, never the key itself), and its
 * Prefer and If-None-Match headers. Off (`enabled: false`) while simulated conditions (latency, error
 * rate, rate limit) must see every request. An answer is stored the second time its request comes, so
 * one-off requests fill nothing. Only requests that came through `replay` are stored (the
 * app served by other means, `app.request()` in a test or another runtime, stores nothing).
 * A request asking what its connection's last replayed request asked (the same URL, Host, Prefer,
 * If-None-Match and data, and the same verdict of the key check, which runs on every request) gets
 * that answer without a lookup, while nothing was stored or evicted since. Such replays do not refresh
 * the answer's place in the LRU: evicted, it is stored again from its next two requests.
 * A request's answer is kept under its key with the data it was made of, so a request keeps one answer,
 * of the newest data. Live data (`live`): the moment is read once per request, here, and the app answers a
 * request it is left for that moment (see momentOf); the data is named by the moment (see `identity`), so a
 * page is replayed while its data holds (many requests between two arrivals), stating each request's own
 * moment in `live.header`.
 */
export function createResponseCache(options: {
  readonly enabled: boolean;
  /**
   * The data a request's answer is made of (the raw URL, and live data's moment): undefined when its
   * answer must never be replayed.
   */
  readonly identity: (url: string | undefined, moment: number | undefined) => string | undefined;
  /** The headers carrying API keys, and the app's key check. */
  readonly keyHeaders: readonly string[];
  readonly knownKey: KeyChecker;
  readonly live?: LiveMoment;
}): ResponseCache {
  const { enabled, identity, keyHeaders, knownKey, live } = options;
  const stored = new AdmissionCache<Stored>({
    max: live ? LIVE_ENTRIES : MAX_ENTRIES,
    maxSize: live ? LIVE_BYTES : MAX_BYTES,
    sizeOf: (entry) => entry.body.length + 512,
    remembered: MAX_ENTRIES,
  });

  /** Which configured key each key header carries, by the app's key check (never the key itself). */
  const verdictsOf = (headers: IncomingHttpHeaders): string => {
    let keys = '';
    for (const name of keyHeaders) {
      const given = headers[name];
      keys += `${knownKey(typeof given === 'string' ? given : undefined)},`;
    }
    return keys;
  };

  // The key and data of a request that missed, made by replay before the app ran (so data reloaded
  // meanwhile is never stored as the new data's), for capture to store the app's answer under.
  const missed = new WeakMap<IncomingMessage, { readonly key: string; readonly data: string }>();
  // Live data: the moment of a request left to the app.
  const moments = new WeakMap<IncomingMessage, number>();
  // The moment's text, made once per millisecond (many replays share one).
  let statedAt = Number.NaN;
  let stated = '';
  const statedMoment = (moment: number) => {
    if (moment !== statedAt) {
      statedAt = moment;
      stated = new Date(moment).toISOString();
    }
    return stated;
  };
  // What each connection asked last and the answer it got; `version` counts changes to `stored`, so an
  // answer since replaced or evicted is never replayed from here.
  const lastAsked = new WeakMap<Socket, Asked>();
  let version = 0;

  const capture: MiddlewareHandler = async (c, next) => {
    await next();
    const cacheable = c.get('cacheable');
    if (!cacheable || (c.res.status !== 200 && c.res.status !== 304)) return;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const asked = incoming && missed.get(incoming);
    if (!asked) return;
    const body = Buffer.from(cacheable.body, 'utf8');
    const headers = Object.fromEntries(c.res.headers);
    if (c.res.status === 200) headers['content-length'] = String(body.length);
    stored.set(asked.key, { status: c.res.status, headers, body, data: asked.data });
    version += 1;
  };

  const replay = (request: IncomingMessage, response: ServerResponse): boolean => {
    const { method, headers, url, socket } = request;
    if (!enabled || (method !== 'GET' && method !== 'HEAD')) return false;
    const moment = live?.clock();
    const data = identity(url, moment);
    if (data === undefined) {
      if (moment !== undefined) moments.set(request, moment);
      return false;
    }
    const keys = verdictsOf(headers);
    const { host, prefer } = headers;
    const etags = headers['if-none-match'];
    // A request like its connection's last one (a client polling a page) is answered as that one was,
    // without making its key or looking it up. Its key is still checked, in constant time, on every
    // request: two requests' keys are never compared with each other.
    const last = socket ? lastAsked.get(socket) : undefined;
    let hit: Stored | undefined;
    if (
      last !== undefined &&
      last.version === version &&
      last.url === url &&
      last.keys === keys &&
      last.host === host &&
      last.prefer === prefer &&
      last.etags === etags &&
      last.data === data
    )
      hit = last.hit;
    else {
      const key = `${host ?? ''}\u0000${url ?? ''}\u0000${keys}\u0000${prefer ?? ''}\u0000${etags ?? ''}`;
      hit = stored.get(key);
      if (hit?.data !== data) {
        // Stored from its second sight on: a request seen once (a fresh search term each time) is never
        // stored, which would cost more than answering it (reading a Response's headers makes it whole).
        // An answer of other data is replaced by this one's.
        if (hit !== undefined || stored.admits(key)) missed.set(request, { key, data });
        if (moment !== undefined) moments.set(request, moment);
        return false;
      }
      if (socket) lastAsked.set(socket, { version, url, keys, host, prefer, etags, data, hit });
    }
    response.writeHead(hit.status, moment === undefined ? hit.headers : { ...hit.headers, [live!.header]: statedMoment(moment) });
    response.end(method === 'HEAD' || hit.status === 304 ? undefined : hit.body);
    return true;
  };

  return { capture, replay, momentOf: (request) => (request ? moments.get(request) : undefined) };
}
