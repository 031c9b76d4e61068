// The kit's HTTP client: bounded, polite, never following a redirect, and redacting at the edge, so that nothing
// past it ever holds the key.
import { redact, SHORT_SECRET, type Secrets } from '../../secrets/redact.ts';
import { CONTRACT_DEFAULTS } from '../options/contract-flags.ts';
import type { Exchange, FetchLike, RecordedRequest } from '../types.ts';
import { bodyCapsOf, createAttempt, DEADLINE_REACHED, type Attempt } from './attempt.ts';
import { retryDelay } from './retry-delay.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';
import { createConcurrencyLimit, type ConcurrencyLimit } from './concurrency-limit.ts';
import { createSendAlone, overloaded, sendsAgain, SENT_ALONE_CAP, shed, timedOutOrReset } from './send-alone.ts';
import { createTimingLog, type TimingLog } from './timing-log.ts';
import { isCredentialHeader } from './secret-exposure.ts';
import { defaultDispatcher, fetchTransport, undiciTransport } from './transports.ts';
import { Client, type Dispatcher } from 'undici';

/** With one of these set, requests go through a proxy, and which connection carries one is not the kit's to choose. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

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
  /**
   * The kind of a request, for the limit of requests in flight to learn each kind's latency apart (a plain page,
   * a page far in, a search); by default its path.
   */
  readonly requestKind?: (path: string, query: Readonly<Record<string, string>>) => string;
  /**
   * Requests that timed out or lost their connection with others in flight are sent again alone, at most this
   * many per run (default {@link SENT_ALONE_CAP}; 0: never).
   */
  readonly sendAloneCap?: number;
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

/** One request of a group sent together: a path (the operation's, or a variant of it), its query and options. */
export interface Ask {
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly options?: SendOptions;
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
  /**
   * Sends `asks` as one group, let through whole: their first attempts start together in one turn (so that
   * their answers show the data at one moment), whatever the requests in flight; the exchanges in `asks`' order.
   */
  sendTogether(operationId: string, asks: readonly Ask[]): Promise<Exchange>[];
  /**
   * Sends `asks` one after another on one connection of their own (kept alive between them), the exchanges in
   * order: what a server keeping state per connection shows. Absent where the client cannot choose its
   * connection (an in-process fetch, a proxy, a dispatcher of the caller's).
   */
  readonly sendOnOneConnection?: (operationId: string, asks: readonly Ask[]) => Promise<Exchange[]>;
  readonly secrets: Secrets;
  readonly stats: ClientStats;
  /** The limit of requests in flight, as it learned the target (the run's own client only). */
  readonly limit?: ConcurrencyLimit;
  /** Latency per kind alone and under load, the limit's moves, the requests sent again alone (the run's own client only). */
  readonly timing?: TimingLog;
}

/** What a request records in place of a key other than the run's (the finding's label says which). */
export const OTHER_KEY = '<another key>';

/**
 * Creates the client. Network requests go through undici (fetch refuses ports such as 6000 that curl
 * reaches) via a proxy-aware agent, so HTTPS, `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` and
 * `NODE_EXTRA_CA_CERTS` work. Redirects are never followed (a 3xx comes back as the response), so the key
 * is never carried to another origin. A body is read up to a byte cap and the timeout covers it, so a
 * target that hangs mid-body, or never ends it, is cut off. Secrets are redacted from everything recorded.
 *
 * @example
 * const client = createHttpClient({ target: 'https://api.example.com/v1', apiKey, apiKeyHeader: 'x-api-key', timeoutMs: 10_000, maxBodyBytes: 16 * 2 ** 20 });
 * const exchange = await client.send('listAlerts', '/alert', { pageSize: '2' });
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const sending = sendingOf(options);
  const { secrets, stats, scheduler, limit, timing, endpoint } = sending;
  const make = (ask: Ask, via?: Sending['attempt']) => makeAsk(sending, ask, via);
  /** `asks` in order on one connection of their own: an undici Client holds exactly one. */
  const sendOnOneConnection = async (operationId: string, asks: readonly Ask[]): Promise<Exchange[]> => {
    const connection = new Client(new URL(endpoint.base).origin);
    // The client's caps: what one body over the cap showed holds on this connection too.
    const via = createAttempt(options, undiciTransport(connection), stats, sending.caps);
    try {
      const exchanges: Exchange[] = [];
      // Not sent again alone: what one connection shows needs that connection.
      for (const ask of asks) exchanges.push(await deliver(sending, operationId, make(ask, via), ask.options ?? {}, undefined, false));
      return exchanges;
    } finally {
      await connection.close().catch(() => undefined);
    }
  };
  const choosesConnections = !options.fetch && !options.dispatcher && !PROXY_VARIABLES.some((name) => process.env[name]);
  return {
    secrets,
    stats,
    limit,
    timing,
    send: (operationId, path, query, sendOptions = {}) =>
      deliver(sending, operationId, make({ path, query, options: sendOptions }), sendOptions),
    ...(choosesConnections ? { sendOnOneConnection } : {}),
    sendTogether(operationId, asks) {
      const made = asks.map((ask) => make(ask));
      const firsts = scheduler.together(
        made.map((m) => () => m.attempt(0)),
        asks[0]?.options?.priority,
        made.map((m) => m.kind),
      );
      return made.map((m, i) =>
        deliver(
          sending,
          operationId,
          m,
          asks[i]!.options ?? {},
          firsts.then((results) => results[i]),
        ),
      );
    },
  };
}

/** The parts of one client: its limit, scheduler, attempts, timing and re-sending alone. */
function sendingOf(options: HttpClientOptions) {
  const key = options.apiKey ? { apiKey: options.apiKey } : {};
  const secrets: Secrets = { ...key, headerValues: Object.values(options.headers ?? {}) };
  const stats = { sent: 0, retried: 0, cut: 0 };
  const limit = createConcurrencyLimit(options.concurrency ?? 1);
  const scheduler = createScheduler({ ...options, limit });
  const transport = options.fetch
    ? fetchTransport(options.fetch)
    : undiciTransport(options.dispatcher ?? defaultDispatcher(), { resendOnReuse: true });
  const base = options.target.endsWith('/') ? options.target.slice(0, -1) : options.target;
  const caps = bodyCapsOf(options);
  const attempt = createAttempt(options, transport, stats, caps);
  const cap = options.sendAloneCap ?? SENT_ALONE_CAP;
  // What an answer must not hand out: the key, and the --header values of credential headers only.
  const credentials: Secrets = {
    ...key,
    headerValues: Object.entries(options.headers ?? {}).flatMap(([name, value]) => (isCredentialHeader(name) ? [value] : [])),
  };
  const timing = createTimingLog(limit, cap);
  const signal = options.signal ? { signal: options.signal } : {};
  return {
    options,
    secrets,
    credentials,
    stats,
    scheduler,
    limit,
    timing,
    alone: createSendAlone({ scheduler, limit, timing, attempt, cap, timeoutMs: options.timeoutMs, ...signal }),
    maxRetries: options.maxRetries ?? CONTRACT_DEFAULTS.maxRetries,
    // The base URL's own path (a deployment under /v1), before a path sent as written.
    endpoint: { base, basePath: new URL(base).pathname.replace(/\/$/, '') },
    attempt,
    caps,
  };
}

/** What every request of one client is made with. */
type Sending = ReturnType<typeof sendingOf>;

/** The request made, with its attempt through `via` (retries counted) and the time its last attempt started. */
function makeAsk(sending: Sending, ask: Ask, via = sending.attempt): Made {
  const made = makeRequest(sending, ask);
  const kind = sending.options.requestKind?.(ask.path, ask.query) ?? ask.path;
  const self: Made = {
    ...made,
    kind,
    startedDateTime: '',
    startedAt: 0,
    inFlight: 1,
    async attempt(tries, mayRetry = tries < sending.maxRetries) {
      if (tries > 0) sending.stats.retried += 1;
      self.startedDateTime = new Date().toISOString();
      const [started, inFlight] = [performance.now(), sending.scheduler.inFlight()];
      // Sent outside the scheduler's turns (alone, or on a connection of its own), it is not counted there.
      const kindInFlight = Math.max(1, sending.scheduler.inFlightOf(kind));
      self.startedAt = started;
      const result = await via({ ...made, mayRetry });
      const [latencyMs, failed, shedding] = [performance.now() - started, overloaded(result), shed(result)];
      self.inFlight = Math.max(inFlight, sending.scheduler.inFlight());
      sending.limit.sample({ kind, latencyMs, inFlight, kindInFlight, failed, shed: shedding });
      // The deadline's aborts are the kit's doing: no figure.
      if (!('error' in result && result.error === DEADLINE_REACHED))
        sending.timing.sample(kind, latencyMs, inFlight, shedding ? 'shed' : failed ? 'failed' : 'answered');
      // A probe is an ordinary read: a GET the target answered with success.
      const status = 'response' in result ? result.response?.status : undefined;
      if (made.method === 'GET' && status !== undefined && status >= 200 && status < 300) sending.alone.remember(kind, made);
      return result;
    },
  };
  return self;
}

/**
 * One request to its end: its first attempt (in a group's turn when given, else in its own), then a retry of
 * each 429 in a turn of its own, within the deadline.
 */
async function deliver(
  sending: Sending,
  operationId: string,
  made: Made,
  sendOptions: SendOptions,
  first?: Promise<Attempt | undefined>,
  mayGoAlone = true,
): Promise<Exchange> {
  const { scheduler } = sending;
  const alone = sendOptions.judgedAlone ? { judgedAlone: true } : {};
  const head = { operationId, request: made.recorded, ...alone };
  for (let tries = 0; ; tries += 1) {
    const result = tries === 0 && first ? await first : await scheduler.inTurn(() => made.attempt(tries), sendOptions.priority, made.kind);
    if (!result) return { ...head, error: DEADLINE_REACHED, ...(made.startedDateTime ? { startedDateTime: made.startedDateTime } : {}) };
    if ('retryAfter' in result) {
      scheduler.backOff(retryDelay(result.retryAfter, tries));
      continue;
    }
    // A request given up on may still run at the target, and weigh on later ones; one answered (a 5xx) does not.
    const load = timedOutOrReset(result) ? sending.alone.loadAt(made.startedAt, made.inFlight) : made.inFlight;
    const exchange = { ...answered(head, made, result, scheduler, tries), inFlight: load };
    if (!sendsAgain(result) || load <= 1) return exchange;
    // On a connection of its own, what it does alone elsewhere is another request: it stays not sent again.
    if (!mayGoAlone) return sending.alone.notAgain(exchange);
    // Alone, with the full timeout, and no retry of a 429: its answer is the request's own.
    return sending.alone.again(exchange, async () => {
      const again = await made.attempt(0, false);
      // Without a retry, a 429 comes back as the response: never as `retryAfter`.
      const result = 'retryAfter' in again ? {} : again;
      return { ...answered(head, made, result, scheduler, 0), inFlight: made.inFlight };
    });
  }
}

/** A request made: as sent and as recorded, its attempt, when its last attempt started and the most in flight meanwhile. */
type Made = ReturnType<typeof makeRequest> & {
  /** Its kind (see HttpClientOptions.requestKind), whose own limit it waits for. */
  readonly kind: string;
  startedDateTime: string;
  /** performance.now() when its last attempt started. */
  startedAt: number;
  inFlight: number;
  attempt(tries: number, mayRetry?: boolean): Promise<Attempt>;
};

/** The exchange of an attempt that came back; a 429 given back (retries spent) slows the run all the same. */
function answered(
  head: Pick<Exchange, 'operationId' | 'request' | 'judgedAlone'>,
  { startedDateTime, startedAt, secrets }: Pick<Made, 'startedDateTime' | 'startedAt' | 'secrets'>,
  { response, error }: { readonly response?: Exchange['response']; readonly error?: string },
  scheduler: Scheduler,
  tries: number,
): Exchange {
  if (response?.status === 429) scheduler.backOff(retryDelay(response.headers['retry-after'] ?? null, tries));
  const span = { sent: startedAt, answered: performance.now() };
  return { ...head, startedDateTime, span, ...(response ? { response } : {}), ...(error ? { error: redact(error, secrets) } : {}) };
}

/**
 * A request as it is sent (URL, headers with the key) and as it is recorded (redacted), with what to redact and the
 * credentials an answer must not hand out.
 */
function makeRequest({ options, endpoint: { base, basePath }, secrets: clientSecrets, credentials }: Sending, ask: Ask) {
  const { path, query, options: sendOptions = {} } = ask;
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
  const recorded: RecordedRequest = {
    method,
    url: redact(written ? `${url.origin}${written}` : url.href, secrets),
    headers: Object.fromEntries(
      Object.entries(headers).map(([n, v]) => [n, other && n === options.apiKeyHeader ? OTHER_KEY : redact(v, secrets)]),
    ),
  };
  return { url, method, headers, secrets, recorded, ...(written ? { written } : {}), credentials };
}
