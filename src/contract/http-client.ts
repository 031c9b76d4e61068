import { redact, type Secrets } from './redact.ts';
import type { Exchange, RecordedRequest, RecordedResponse } from './types.ts';

/** A fetch-compatible function: global fetch, or an in-process app's `fetch`. */
export type FetchLike = (input: Request) => Promise<Response> | Response;

/** How the kit reaches a target. */
export interface HttpClientOptions {
  /** Base URL of the target, e.g. `https://api.example.com/v1`. */
  readonly target: string;
  readonly apiKey?: string;
  /** Header carrying the key, from the spec's security scheme. */
  readonly apiKeyHeader: string;
  /** Extra headers sent with every request (e.g. for a gateway). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per request, including reading the body. */
  readonly timeoutMs: number;
  /** Bodies larger than this are cut and reported. */
  readonly maxBodyBytes: number;
  readonly fetch?: FetchLike;
}

/** What a request may change: the key (`null` sends none) and extra headers. */
export interface SendOptions {
  readonly apiKey?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly method?: string;
}

/** Sends requests to the target and records each as a redacted {@link Exchange}; never throws. */
export interface HttpClient {
  send(operationId: string, path: string, query: Readonly<Record<string, string>>, options?: SendOptions): Promise<Exchange>;
  readonly secrets: Secrets;
}

/**
 * Creates the client. Redirects are never followed (a 3xx comes back as the response), so the key is
 * never carried to another origin; bodies are read up to a byte cap, and the timeout covers the body,
 * so a target that hangs mid-body is cut off.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const secrets: Secrets = { ...(options.apiKey ? { apiKey: options.apiKey } : {}), headerValues: Object.values(options.headers ?? {}) };
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  const base = options.target.endsWith('/') ? options.target.slice(0, -1) : options.target;

  return {
    secrets,
    async send(operationId, path, query, sendOptions = {}) {
      const url = new URL(base + path);
      for (const [name, value] of Object.entries(query)) url.searchParams.append(name, value);
      const headers: Record<string, string> = { ...options.headers, ...sendOptions.headers };
      const key = sendOptions.apiKey === undefined ? options.apiKey : sendOptions.apiKey;
      if (key !== null && key !== undefined) headers[options.apiKeyHeader] = key;
      const method = sendOptions.method ?? 'GET';
      const recorded: RecordedRequest = {
        method,
        url: redact(url.href, secrets),
        headers: Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, redact(v, secrets)])),
      };

      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      const started = performance.now();
      try {
        const response = await doFetch(new Request(url, { method, headers, redirect: 'manual', signal: controller.signal }));
        const { text, cut } = await readCapped(response, options.maxBodyBytes);
        const recordedResponse: RecordedResponse = {
          status: response.status,
          headers: Object.fromEntries([...response.headers].map(([n, v]) => [n.toLowerCase(), redact(v, secrets)])),
          text: redact(text, secrets),
          ...parseJson(text),
          durationMs: Math.round(performance.now() - started),
        };
        return cut
          ? { operationId, request: recorded, response: recordedResponse, error: `body larger than ${options.maxBodyBytes} bytes; reading stopped` }
          : { operationId, request: recorded, response: recordedResponse };
      } catch (error) {
        const reason = controller.signal.aborted ? `no complete response within ${options.timeoutMs} ms` : describeNetworkError(error);
        return { operationId, request: recorded, error: redact(reason, secrets) };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

async function readCapped(response: Response, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: '', cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      chunks.push(value.subarray(0, value.byteLength - (size - maxBytes)));
      return { text: Buffer.concat(chunks).toString('utf8'), cut: true };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut: false };
}

function parseJson(text: string): { json?: unknown } {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return {};
  }
}

/** Turns undici's nested "fetch failed" into the cause a user can act on. */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ENOTFOUND') return 'host not found';
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return cause?.message ?? (error as Error).message ?? String(error);
}
