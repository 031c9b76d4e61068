// A client on a fake clock, for the tests of its timing rules: waits are exact whatever the machine's load.
import { vi } from 'vitest';
import { createHttpClient, type HttpClientOptions } from '../../../src/contract/client/http-client.ts';

/**
 * A client whose target is in-process and whose clock is fake (setTimeout and performance.now): the waits the
 * politeness rules make are then exact, whatever the machine's load. `answer` gets each request and when it came.
 */
export function onFakeClock(
  answer: (request: Request, at: number) => Response | Promise<Response>,
  extra: Partial<HttpClientOptions> = {},
) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'], now: 0 });
  return createHttpClient({
    target: 'http://target.test',
    apiKey: 'sk_live_4f9a2b7c1d3e5a6b',
    apiKeyHeader: 'x-api-key',
    timeoutMs: 5_000,
    maxBodyBytes: 16 * 1024 * 1024,
    fetch: (request) => answer(request, performance.now()),
    ...extra,
  });
}

/** Runs the fake clock until `work` settles: at each step whatever is ready runs, then the next timer fires. */
export async function settle<T>(work: Promise<T>): Promise<T> {
  let done = false;
  work.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!done) await vi.advanceTimersToNextTimerAsync();
  }
  return work;
}

export const answerJson = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
