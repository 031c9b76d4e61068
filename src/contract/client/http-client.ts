import { CONTRACT_DEFAULTS } from '../options/contract-flags.ts';
import PQueue from 'p-queue';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { redact, redactValue, SHORT_SECRET, type Secrets } from '../../secrets/redact.ts';
import type { Exchange, FetchLike, RecordedRequest, RecordedResponse } from '../types.ts';

export type { FetchLike } from '../types.ts';

/** How the kit reaches a target. */
export interface HttpClientOptions {
  /** Base URL of the target, e.g. `https://api.example.com/v1`. */
  readonly target: string;
  readonly apiKey?: string;
  /** Header carrying the key, from the spec's security scheme; none: no key is sent. */
  readonly apiKeyHeader?: string;
  /** Extra headers sent with every request (e.g. for a gateway). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per request, including reading the body. */
  readonly timeoutMs: number;
  /** Bodies larger than this are cut and reported. */
  readonly maxBodyBytes: number;
  /**
   * After the first body over {@link maxBodyBytes}, later bodies are read only up to this (default 1 MiB,
   * far above a page of 100 records), so a target that always answers endlessly costs one full read.
   */
  readonly reducedBodyBytes?: number;
  /** At most this many requests per second, spaced evenly (retries included). */
  readonly rate?: number;
  /**
   * At most this many requests in flight (default 1). From the first 429 on, one at a time, and none starts
   * before its Retry-After has passed.
   */
  readonly concurrency?: number;
  /** Retries of a 429, honouring Retry-After (default: CONTRACT_DEFAULTS.maxRetries). */
  readonly maxRetries?: number;
  /** The run's deadline: aborts requests in flight; later sends return at once without sending. */
  readonly signal?: AbortSignal;
  /** Sends requests in-process instead of over the network. */
  readonly fetch?: FetchLike;
  /** undici dispatcher for network requests; by default one that honours HTTP(S)_PROXY and NO_PROXY. */
  readonly dispatcher?: Dispatcher;
}

/** What a request may change: the key (`null` sends none) and extra headers. */
export interface SendOptions {
  readonly apiKey?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly method?: string;
  /**
   * The path sent exactly as written (dot segments and all), not through a URL parser that would normalise it;
   * needs a network target (an in-process fetch takes a parsed Request).
   */
  readonly asWritten?: boolean;
  /** Another path than the operation's (a variant of it), appended to the target's base URL. */
  readonly path?: string;
  /** A request off the interface, judged by its own check's rule only (see Exchange.judgedAlone). */
  readonly judgedAlone?: boolean;
  /** Query parameters appended after `query`'s, a name already there included (the same parameter twice). */
  readonly extraQuery?: readonly (readonly [string, string])[];
  /** Queued requests go highest priority first (default 0): what many checks wait on goes before requests sent ahead. */
  readonly priority?: number;
}

/** What a client has done so far; a live object, updated as requests go. */
export interface ClientStats {
  /** Requests actually sent, retries included. */
  readonly sent: number;
  /** Of those, retries of a 429. */
  readonly retried: number;
  /** Responses whose body was cut at a byte cap. */
  readonly cut: number;
}

/** Sends requests to the target and records each as a redacted {@link Exchange}; never throws. */
export interface HttpClient {
  send(operationId: string, path: string, query: Readonly<Record<string, string>>, options?: SendOptions): Promise<Exchange>;
  readonly secrets: Secrets;
  readonly stats: ClientStats;
}

/** What a request records in place of a key other than the run's (the finding's label says which). */
export const OTHER_KEY = '<another key>';

/** The error of every exchange the run's deadline stopped, or kept from being sent. */
export const DEADLINE_REACHED = 'run deadline reached';
/** Longest wait before retrying a 429, whatever its Retry-After says. */
export const MAX_RETRY_WAIT_MS = 30_000;
const REDUCED_BODY_BYTES = 1024 * 1024;
/** Of a body over the cap, this much is kept (redacted) as `text`, to show what it was. */
const HEAD_CHARS = 4096;
// Redacted before it is cut to HEAD_CHARS, so a key straddling the cut is still recognised.
const HEAD_BYTES = 2 * HEAD_CHARS;

let sharedDispatcher: Dispatcher | undefined;

/** The dispatcher every client shares unless given one: made on first use, so importing the kit opens nothing. */
function defaultDispatcher(): Dispatcher {
  sharedDispatcher ??= new EnvHttpProxyAgent();
  return sharedDispatcher;
}

/**
 * Creates the client. Network requests go through undici (fetch refuses ports such as 6000 that curl
 * reaches) via a proxy-aware agent, so HTTPS, `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` and
 * `NODE_EXTRA_CA_CERTS` work. Redirects are never followed (a 3xx comes back as the response), so the key
 * is never carried to another origin. A body is read up to a byte cap and the timeout covers it, so a
 * target that hangs mid-body, or never ends it, is cut off. Secrets are redacted from everything recorded.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const clientSecrets: Secrets = {
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    headerValues: Object.values(options.headers ?? {}),
  };
  const base = options.target.endsWith('/') ? options.target.slice(0, -1) : options.target;
  // The base URL's own path (a deployment under /v1), before a path sent as written.
  const basePath = new URL(base).pathname.replace(/\/$/, '');
  const stats = { sent: 0, retried: 0, cut: 0 };
  const maxRetries = options.maxRetries ?? CONTRACT_DEFAULTS.maxRetries;
  const reducedCap = Math.min(options.maxBodyBytes, options.reducedBodyBytes ?? REDUCED_BODY_BYTES);
  let capReached = false;
  const pace = pacer(options.rate, options.signal);
  // A priority queue: a request others wait on (a listing read) goes before those sent ahead.
  const inFlight = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 1) });
  // After a 429: no request starts before this (performance.now() time), whichever request got it.
  let holdUntil = 0;
  const backOff = (waitMs: number) => {
    inFlight.concurrency = 1;
    holdUntil = Math.max(holdUntil, performance.now() + waitMs);
  };
  /** One attempt in its turn: within the concurrency, the rate and any hold; undefined when the deadline passed first. */
  const inTurn = (run: () => Promise<Attempt>, priority = 0) =>
    inFlight.add(
      async () => {
        if (!(await pace())) return undefined;
        // Again after each wait: a 429 to a request already in flight may have moved the hold on.
        for (let wait = holdUntil - performance.now(); wait > 0; wait = holdUntil - performance.now())
          if (!(await sleep(wait, options.signal))) return undefined;
        return run();
      },
      { priority },
    );
  const transport: Transport = options.fetch ? fetchTransport(options.fetch) : undiciTransport(options.dispatcher ?? defaultDispatcher());

  /** One request: sent, its body read within the cap and the timeout. `retryAfter` when it is a 429 to retry. */
  async function attempt(
    url: URL,
    method: string,
    headers: Record<string, string>,
    mayRetry: boolean,
    secrets: Secrets,
    written?: string,
  ): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), options.timeoutMs);
    const onDeadline = () => controller.abort(new Error(DEADLINE_REACHED));
    options.signal?.addEventListener('abort', onDeadline, { once: true });
    const started = performance.now();
    try {
      stats.sent += 1;
      // Raced with the signal: an in-process fetch may ignore it and never answer.
      const answer = await Promise.race([transport(url, method, headers, controller.signal, written), rejection(controller.signal)]);
      if (answer.status === 429 && mayRetry) {
        answer.body.stop();
        return { retryAfter: answer.headers['retry-after'] ?? null };
      }
      // Read each time a chunk comes: a body read alongside the first one over the cap stops at the small cap too.
      const cap = () => (capReached ? reducedCap : options.maxBodyBytes);
      const body = await readCapped(answer.body, cap, Number(answer.headers['content-length'] ?? Number.NaN));
      const recorded = {
        status: answer.status,
        // Names too: a target may echo the key in a header's name (every character of many keys is allowed there).
        headers: Object.fromEntries(Object.entries(answer.headers).map(([n, v]) => [redact(n, secrets), redact(v, secrets)])),
        durationMs: Math.round(performance.now() - started),
      };
      if (body.cut) {
        stats.cut += 1;
        const reduced = body.cap < options.maxBodyBytes;
        const error = `body larger than ${body.cap} bytes; reading stopped${reduced ? ` (after a body over ${options.maxBodyBytes} bytes earlier in this run, later ones are read only up to ${body.cap})` : ''}`;
        capReached = true;
        return { response: { ...recorded, text: redact(body.head.toString('utf8'), secrets).slice(0, HEAD_CHARS) }, error };
      }
      // Parsed from the raw text, then redacted: a preview cut later from any value is already clean.
      const raw = body.bytes.toString('utf8');
      const response: RecordedResponse = { ...recorded, text: redact(raw, secrets), ...parseJson(raw, secrets) };
      return { response };
    } catch (error) {
      if (options.signal?.aborted) return { error: DEADLINE_REACHED };
      return { error: controller.signal.aborted ? `no complete response within ${options.timeoutMs} ms` : describeNetworkError(error) };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onDeadline);
    }
  }

  return {
    secrets: clientSecrets,
    stats,
    async send(operationId, path, query, sendOptions = {}) {
      const url = new URL(base + path);
      for (const [name, value] of [...Object.entries(query), ...(sendOptions.extraQuery ?? [])]) url.searchParams.append(name, value);
      const written = sendOptions.asWritten ? `${basePath}${path}${url.search}` : undefined;
      const headers: Record<string, string> = { ...options.headers, ...sendOptions.headers };
      const key = sendOptions.apiKey === undefined ? options.apiKey : sendOptions.apiKey;
      if (key !== null && key !== undefined && options.apiKeyHeader) headers[options.apiKeyHeader] = key;
      // Another key in its place (a look-alike the kit derived from the key, most often) is never recorded: a
      // few of them together could spell the key, which is redacted only whole when short. An echo of one long
      // enough to be told from ordinary text (not a short secret) is redacted too.
      const other = key && key !== options.apiKey ? key : undefined;
      const secrets =
        other && other.length >= SHORT_SECRET ? { ...clientSecrets, headerValues: [...clientSecrets.headerValues, other] } : clientSecrets;
      const method = sendOptions.method ?? 'GET';
      const request: RecordedRequest = {
        method,
        url: redact(written ? `${url.origin}${written}` : url.href, secrets),
        headers: Object.fromEntries(
          Object.entries(headers).map(([n, v]) => [n, other && n === options.apiKeyHeader ? OTHER_KEY : redact(v, secrets)]),
        ),
      };
      const alone = sendOptions.judgedAlone ? { judgedAlone: true } : {};
      const stopped = { operationId, request, error: DEADLINE_REACHED, ...alone };

      let startedDateTime = '';
      for (let tries = 0; ; tries += 1) {
        const result = await inTurn(() => {
          if (tries > 0) stats.retried += 1;
          startedDateTime = new Date().toISOString();
          return attempt(url, method, headers, tries < maxRetries, secrets, written);
        }, sendOptions.priority);
        if (!result) return startedDateTime ? { ...stopped, startedDateTime } : stopped;
        if ('retryAfter' in result) {
          backOff(retryDelay(result.retryAfter, tries));
          continue;
        }
        const { response, error } = result;
        // A 429 given back (retries spent) slows the run all the same, and its Retry-After holds.
        if (response?.status === 429) backOff(retryDelay(response.headers['retry-after'] ?? null, tries));
        return {
          operationId,
          request,
          ...alone,
          startedDateTime,
          ...(response ? { response } : {}),
          ...(error ? { error: redact(error, secrets) } : {}),
        };
      }
    },
  };
}

type Attempt = { readonly retryAfter: string | null } | { readonly response?: RecordedResponse; readonly error?: string };

function parseJson(raw: string, secrets: Secrets): { json?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return {};
  }
  return { json: redactValue(json, secrets) };
}

// --- Transports: undici over the network, or an in-process fetch; both give a body to pull chunks from.

interface BodySource {
  /** The next chunk, or undefined at the end. */
  next(): Promise<Uint8Array | undefined>;
  /** Stops reading and releases the connection (an unread rest is never downloaded). */
  stop(): void;
}

interface Answer {
  readonly status: number;
  /** Names lower-cased, repeated headers joined. */
  readonly headers: Record<string, string>;
  readonly body: BodySource;
}

/** `written`: the path and query to send as they are, instead of `url`'s. */
type Transport = (url: URL, method: string, headers: Record<string, string>, signal: AbortSignal, written?: string) => Promise<Answer>;

function undiciTransport(dispatcher: Dispatcher): Transport {
  return async (url, method, headers, signal, written) => {
    // undici's request() follows no redirect and applies no bad-port list; its own timeouts are off
    // because ours (covering headers and body) aborts through the signal. A path as written goes through the
    // dispatcher itself, which sends it unparsed.
    const common = { method: method as Dispatcher.HttpMethod, headers, signal, headersTimeout: 0, bodyTimeout: 0 };
    const response = written
      ? await dispatcher.request({ ...common, origin: url.origin, path: written })
      : await request(url, { ...common, dispatcher });
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers))
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    // Destroying a body undici has not finished errors it ("Request aborted"): expected, not a crash.
    response.body.on('error', () => undefined);
    const iterator = response.body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    return {
      status: response.statusCode,
      headers: flat,
      body: {
        next: async () => {
          const step = await iterator.next();
          return step.done ? undefined : step.value;
        },
        stop: () => response.body.destroy(),
      },
    };
  };
}

function fetchTransport(fetch: FetchLike): Transport {
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
function rejection(signal: AbortSignal): Promise<never> {
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined); // handled by whoever races it; unraced, it must not be "unhandled"
  return aborted;
}

// --- Bodies: read up to the cap; over it, stop and keep only the head.

type Body = { readonly cut: false; readonly bytes: Buffer } | { readonly cut: true; readonly head: Buffer; readonly cap: number };

/** Reads a body whole, or up to `cap()` (asked again at every chunk, as it may shrink meanwhile). */
async function readCapped(source: BodySource, cap: () => number, declaredLength: number): Promise<Body> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A declared length over the cap needs no proof: read the head only.
  const declaredOver = declaredLength > cap();
  for (let chunk = await source.next(); chunk; chunk = await source.next()) {
    chunks.push(chunk);
    size += chunk.byteLength;
    const limit = cap();
    if (size > (declaredOver ? HEAD_BYTES : limit)) {
      source.stop();
      return { cut: true, head: head(chunks, HEAD_BYTES), cap: limit };
    }
  }
  return { cut: false, bytes: Buffer.concat(chunks, size) };
}

/** The first `bytes` of the chunks, copying no more than that. */
function head(chunks: readonly Uint8Array[], bytes: number): Buffer {
  const taken: Uint8Array[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (size >= bytes) break;
    const part = chunk.subarray(0, bytes - size);
    taken.push(part);
    size += part.byteLength;
  }
  return Buffer.concat(taken, size);
}

// --- Politeness: pacing, and waits before a retry; both end at once when the deadline passes.

/** A function resolving when the next request may go (false: the deadline passed first). */
function pacer(rate: number | undefined, signal: AbortSignal | undefined): () => Promise<boolean> {
  const interval = rate && rate > 0 ? 1000 / rate : 0;
  let next = 0;
  return async () => {
    if (signal?.aborted) return false;
    if (interval === 0) return true;
    // The slot is taken before waiting, so concurrent sends queue up evenly.
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    return at > now ? sleep(at - now, signal) : true;
  };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How long to wait before retry number `tries + 1`: Retry-After (seconds or an HTTP date), else a short backoff. */
export function retryDelay(retryAfter: string | null, tries: number): number {
  if (retryAfter !== null) {
    const value = retryAfter.trim();
    const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
  }
  return Math.min(500 * 2 ** tries, MAX_RETRY_WAIT_MS);
}

// --- Errors a user can act on.

const TLS_ERROR = /CERT|SELF_SIGNED|TLS|SSL|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

/** Turns a transport error (undici's, node:http's, or fetch's nested "fetch failed") into the cause a user can act on. */
export function describeNetworkError(error: unknown): string {
  let cause = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined;
  // fetch wraps the cause; a connection tried on several addresses fails with an AggregateError.
  for (let depth = 0; cause && typeof cause === 'object' && depth < 5; depth += 1) {
    if (typeof cause.code === 'string') break;
    const inner = cause.cause ?? (Array.isArray(cause.errors) ? cause.errors[0] : undefined);
    if (!inner || typeof inner !== 'object') break;
    cause = inner as typeof cause;
  }
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof cause?.message === 'string' && cause.message ? cause.message : String(error);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection closed by the target (${code})`;
  if (code && TLS_ERROR.test(code)) return `TLS error ${code}: ${message} (trust a private CA with NODE_EXTRA_CA_CERTS=ca.pem)`;
  if (code) return `${code}: ${message}`;
  return message;
}
