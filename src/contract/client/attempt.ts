// One attempt at a request: sent, its body read within the cap and the timeout, everything recorded redacted.
import { redact, redactValue, type Secrets } from '../../secrets/redact.ts';
import type { RecordedResponse } from '../types.ts';
import { describeNetworkError } from './network-error.ts';
import { carriedBy, exposure } from './secret-exposure.ts';
import { createBodyCaps, HEAD_CHARS, readCapped, type Body, type BodyCaps } from './read-capped.ts';
import { rejection, type Answer, type Transport } from './transports.ts';

/** The error of every exchange the run's deadline stopped, or kept from being sent. */
export const DEADLINE_REACHED = 'run deadline reached';
const REDUCED_BODY_BYTES = 1024 * 1024;

/** How the error of a request the timeout cut off begins. */
export const TIMED_OUT = 'no complete response within';

/** What an attempt came to: a 429 to retry (with its Retry-After), or the response and any error. */
export type Attempt = { readonly retryAfter: string | null } | { readonly response?: RecordedResponse; readonly error?: string };

/** One request to make: where, how, and what to redact from what it records. */
export interface AttemptRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  /** A 429 comes back as `retryAfter` rather than as the response. */
  readonly mayRetry: boolean;
  readonly secrets: Secrets;
  /** The run's credentials (its key, credential --header values), to tell an answer that hands one out. */
  readonly credentials?: Secrets;
  /** The path and query to send as they are, instead of `url`'s. */
  readonly written?: string;
}

/** The caps and the timeout of a client's attempts (see HttpClientOptions). */
export interface AttemptLimits {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly reducedBodyBytes?: number;
  readonly signal?: AbortSignal;
}

/** The body caps of a client's attempts (see BodyCaps): the full cap, then the reduced one. */
export const bodyCapsOf = (limits: AttemptLimits) => createBodyCaps(limits.maxBodyBytes, limits.reducedBodyBytes ?? REDUCED_BODY_BYTES);

/**
 * The attempts of one client (its connections of their own too), sharing its counts and its body caps (after a
 * body over the cap, later bodies are read only up to the reduced cap).
 *
 * @example
 * const attempt = createAttempt(limits, transport, stats, bodyCapsOf(limits));
 * const result = await attempt({ url, method: 'GET', headers, mayRetry: true, secrets });
 */
export function createAttempt(limits: AttemptLimits, transport: Transport, stats: { sent: number; cut: number }, caps: BodyCaps) {
  return async (request: AttemptRequest): Promise<Attempt> => {
    const { url, method, headers, mayRetry, written } = request;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), limits.timeoutMs);
    const onDeadline = () => controller.abort(new Error(DEADLINE_REACHED));
    limits.signal?.addEventListener('abort', onDeadline, { once: true });
    const started = performance.now();
    try {
      stats.sent += 1;
      // Raced with the signal: an in-process fetch may ignore it and never answer.
      const answer = await Promise.race([transport(url, method, headers, controller.signal, written), rejection(controller.signal)]);
      if (answer.status === 429 && mayRetry) {
        answer.body.stop();
        return { retryAfter: answer.headers['retry-after'] ?? null };
      }
      const body = await readCapped(answer.body, {
        caps,
        declaredLength: Number(answer.headers['content-length'] ?? Number.NaN),
        signal: controller.signal,
        timedOut: () => controller.signal.aborted && !limits.signal?.aborted,
        timeoutMs: limits.timeoutMs,
      });
      if (body.cut) {
        stats.cut += 1;
        if (!body.late) caps.reduce(`a body over ${limits.maxBodyBytes} bytes earlier in this run`);
      }
      return recorded(answer, body, request, Math.round(performance.now() - started), limits, caps);
    } catch (error) {
      if (limits.signal?.aborted) return { error: DEADLINE_REACHED };
      return { error: controller.signal.aborted ? `${TIMED_OUT} ${limits.timeoutMs} ms` : describeNetworkError(error) };
    } finally {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onDeadline);
    }
  };
}

/** The response as recorded: redacted, its JSON parsed from the raw text; a body over the cap kept as its head. */
function recorded(answer: Answer, body: Body, request: AttemptRequest, durationMs: number, limits: AttemptLimits, caps: BodyCaps): Attempt {
  const { secrets, credentials } = request;
  const raw = (body.cut ? body.head : body.bytes).toString('utf8');
  const text = redact(raw, secrets);
  // Names too: a target may echo the key in a header's name (every character of many keys is allowed there).
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([n, v]) => [redact(n, secrets), redact(v, secrets)]));
  const rawHeaders = Object.entries(answer.headers).flat().join('\n');
  // The run's credentials are among its secrets: only an answer redaction changed can hold one.
  const touched = text !== raw || Object.entries(headers).flat().join('\n') !== rawHeaders;
  const exposed =
    touched && credentials ? exposure({ body: raw, headers: rawHeaders }, credentials, carriedBy(request.headers, request.url)) : undefined;
  const response = {
    ...(exposed ? { secretExposed: exposed } : {}),
    status: answer.status,
    headers,
    durationMs,
    ...(answer.connection !== undefined ? { connection: answer.connection } : {}),
  };
  if (body.cut) return { response: { ...response, text: text.slice(0, HEAD_CHARS) }, error: cutError(body, limits, caps) };
  // Parsed from the raw text, then redacted: a preview cut later from any value is already clean.
  return { response: { ...response, text, ...parseJson(raw, secrets) } };
}

/** Why a body was cut: over the cap (the full one, or the reduced one after a body over it), or still coming at the timeout. */
function cutError(body: Body & { cut: true }, { maxBodyBytes, timeoutMs }: AttemptLimits, caps: BodyCaps): string {
  if (body.late)
    return `body larger than ${body.late.bytes} bytes and still coming after ${timeoutMs} ms (past ${body.cap} bytes, a body without end at this speed); reading stopped`;
  const why = body.cap < maxBodyBytes ? caps.why() : undefined;
  return `body larger than ${body.cap} bytes; reading stopped${why ? ` (after ${why}, later ones are read only up to ${body.cap})` : ''}`;
}

function parseJson(raw: string, secrets: Secrets): { json?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return {};
  }
  return { json: redactValue(json, secrets) };
}
