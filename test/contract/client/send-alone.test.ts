import { afterEach, describe, expect, it, vi } from 'vitest';
import { comparePlaces, sentAgainAlone } from '../../../src/contract/client/exchange-recorder.ts';
import { createSendAlone } from '../../../src/contract/client/send-alone.ts';
import { responseReceived } from '../../../src/contract/checks/response-received.ts';
import type { OperationContext } from '../../../src/contract/model/context.ts';
import type { Exchange } from '../../../src/contract/types.ts';
import { answerJson, onFakeClock, settle } from './fake-clock.ts';

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A target with one worker, as a database with one connection: requests wait in line, and one whose client gave
 * up still runs to its end. `cost` says how long each takes; `Infinity` never ends. The log says, for each
 * request, how long it waited in line.
 */
function oneWorker(cost: (url: URL) => number) {
  let busyUntil = 0;
  const log: { url: string; at: number; waited: number }[] = [];
  const answer = (request: Request, at: number) => {
    const url = new URL(request.url);
    const start = Math.max(at, busyUntil);
    const took = cost(url);
    busyUntil = start + took;
    log.push({ url: `${url.pathname}${url.search}`, at, waited: start - at });
    if (took === Number.POSITIVE_INFINITY) return new Promise<Response>(() => undefined);
    return new Promise<Response>((resolve) => setTimeout(() => resolve(answerJson(200, [])), busyUntil - at));
  };
  return { answer, log };
}

const isSearch = (url: URL) => url.searchParams.has('search');
const inspect = (exchange: Exchange) => responseReceived.inspect(exchange, {} as OperationContext);

describe('a request that failed under load is judged by what it does alone', () => {
  it('sends it again with nothing else in flight once a probe answers at unloaded speed, and judges that answer', async () => {
    // A page takes 5 ms, a search 400 ms; with the timeout at 1 s, a search queued behind three others times out.
    // Six searches sent together (let through whole, whatever the limit) make the line.
    const target = oneWorker((url) => (isSearch(url) ? 400 : 5));
    const requestKind = (_path: string, query: Readonly<Record<string, string>>) => (query.search ? 'search' : 'page');
    const http = onFakeClock(target.answer, { concurrency: 8, timeoutMs: 1_000, requestKind });
    await settle(http.send('listAlerts', '/alert', { page: '1' }));
    const asks = Array.from({ length: 6 }, (_, i) => ({ path: '/alert', query: { search: `term${i}` } }));
    const answers = await settle(Promise.all(http.sendTogether('listAlerts', asks)));

    const again = answers.filter((e) => e.firstUnderLoad);
    expect(again.length).toBeGreaterThan(0);
    for (const exchange of again) {
      expect(exchange.response?.status).toBe(200);
      expect(exchange.firstUnderLoad?.error).toMatch(/^no complete response within 1000 ms/);
      expect(exchange.firstUnderLoad?.inFlight).toBeGreaterThan(1);
      expect(exchange.inFlight).toBe(1);
      // Sent alone and after the line emptied: the target did not make it wait.
      const sent = target.log.filter((l) => l.url === new URL(exchange.request.url).pathname + new URL(exchange.request.url).search);
      expect(sent.at(-1)?.waited).toBe(0);
    }
    // Every search got an answer; the ones that first timed out with more than 2 in flight are no finding.
    expect(answers.every((e) => e.response?.status === 200)).toBe(true);
    const findings = answers.flatMap(inspect);
    expect(findings.every((f) => f.severity === 'warning')).toBe(true);
    expect(findings.length).toBe(again.filter((e) => (e.firstUnderLoad?.inFlight ?? 0) <= 2).length);
    // Probes went first: each a cheap page, answered at its speed before the search went again.
    const timing = http.timing!.report();
    expect(timing.sentAgainAlone).toMatchObject({ answered: again.length, failedAlone: 0, notSent: 0, cap: 20 });
    expect(timing.sentAgainAlone.probes).toBeGreaterThanOrEqual(again.length);
    expect(target.log.filter((l) => l.url === '/alert?page=1').length).toBe(1 + timing.sentAgainAlone.probes);
    expect(timing.limit.changes.some((c) => c.to < c.from && /timed out/.test(c.why))).toBe(true);
  });

  it('reports one that fails alone too as an error, and past the cap sends none again (a warning each)', async () => {
    // Searches for "hang" never end; everything else answers at once.
    const target = oneWorker((url) => (url.searchParams.get('search') === 'hang' ? Number.POSITIVE_INFINITY : 0));
    const http = onFakeClock(target.answer, { concurrency: 8, timeoutMs: 1_000, sendAloneCap: 1 });
    await settle(http.send('listAlerts', '/alert', { page: '1' }));
    const [hung, other, hungToo] = await settle(
      Promise.all(
        http.sendTogether(
          'listAlerts',
          [0, 1, 2].map((i) => ({ path: '/alert', query: { search: i === 1 ? 'ok' : 'hang' } })),
        ),
      ),
    );
    expect(other?.response?.status).toBe(200);
    // The first to fail took the run's only re-send: alone it failed too.
    const [resent, notResent] = hung?.firstUnderLoad ? [hung, hungToo] : [hungToo, hung];
    expect(resent?.error).toMatch(/^no complete response within 1000 ms/);
    expect(inspect(resent!)).toMatchObject([{ severity: 'error', message: expect.stringMatching(/^no usable response alone either/) }]);
    expect(notResent?.notSentAlone).toBe(true);
    expect(inspect(notResent!)).toMatchObject([{ severity: 'warning', message: expect.stringMatching(/not sent again alone/) }]);
    expect(http.timing!.report().sentAgainAlone).toMatchObject({ answered: 0, failedAlone: 1, notSent: 1 });
  });

  it('does not blame a request that failed alone while no probe answered at unloaded speed: the target was still busy', async () => {
    // A target that slowed down after its first page (5 ms, then 300 ms: busy with something), whose searches take
    // 1.5 s: six time out together, and once what the kit gave up on may have ended, no probe answers at the first
    // page's speed: alone, the search fails into a target still busy.
    let pages = 0;
    const target = oneWorker((url) => {
      if (isSearch(url)) return 1_500;
      pages += 1;
      return pages === 1 ? 5 : 300;
    });
    const requestKind = (_path: string, query: Readonly<Record<string, string>>) => (query.search ? 'search' : 'page');
    const http = onFakeClock(target.answer, { concurrency: 8, timeoutMs: 1_000, requestKind, sendAloneCap: 1 });
    await settle(http.send('listAlerts', '/alert', { page: '1' }));
    const asks = Array.from({ length: 6 }, (_, i) => ({ path: '/alert', query: { search: `term${i}` } }));
    const answers = await settle(Promise.all(http.sendTogether('listAlerts', asks)));
    const resent = answers.find((e) => e.firstUnderLoad);
    expect(resent).toMatchObject({ error: 'no complete response within 1000 ms', stillBusy: true });
    // Never an error. First with more than 2 in flight: a figure of the timing section, no finding; else a warning.
    expect(inspect(resent!).filter((f) => f.severity === 'error')).toEqual([]);
    expect(inspect({ ...resent!, firstUnderLoad: { ...resent!.firstUnderLoad!, inFlight: 5 } })).toEqual([]);
    expect(inspect({ ...resent!, firstUnderLoad: { ...resent!.firstUnderLoad!, inFlight: 2 } })).toMatchObject([
      { severity: 'warning', message: expect.stringMatching(/failed too, but with the target still busy/) },
    ]);
    expect(http.timing!.report().sentAgainAlone).toMatchObject({ failedAlone: 1, stillBusy: 1 });
  });

  it('sends it again only once the target may have ended what the kit gave up on, though a probe answers at once', async () => {
    // Searches of 600 ms in line on one worker; pages on another, at once: a probe never shows the searches' line.
    let searchesUntil = 0;
    const log: { url: string; at: number }[] = [];
    const http = onFakeClock(
      (request, at) => {
        const url = new URL(request.url);
        log.push({ url: url.search, at });
        if (!isSearch(url)) return answerJson(200, []);
        searchesUntil = Math.max(at, searchesUntil) + 600;
        return new Promise((resolve) => setTimeout(() => resolve(answerJson(200, [])), searchesUntil - at));
      },
      { concurrency: 8, timeoutMs: 1_000, requestKind: (_path, query) => (query.search ? 'search' : 'page') },
    );
    await settle(http.send('listAlerts', '/alert', { page: '1' }));
    const asks = Array.from({ length: 4 }, (_, i) => ({ path: '/alert', query: { search: `term${i}` } }));
    const answers = await settle(Promise.all(http.sendTogether('listAlerts', asks)));
    // Three timed out at 1 s, their searches still in line until 2.4 s: sent again then, they would time out too.
    const again = answers.filter((e) => e.firstUnderLoad);
    expect(again).toHaveLength(3);
    expect(again.every((e) => e.response?.status === 200 && !e.stillBusy)).toBe(true);
    // The first sent again went once the three given up on (a --timeout each, in line) may have ended: at 4 s.
    const resent = log.filter((l, i) => l.url.startsWith('?search') && i > 4);
    expect(resent[0]!.at).toBeGreaterThanOrEqual(4_000);
    expect(answers.flatMap(inspect)).toEqual([]);
  });

  it('counts the load a request bore behind requests the kit gave up on, though it went alone', async () => {
    // No re-sends. Two searches of 900 ms go together: the second times out at the back of the line. A search
    // sent alone just after waits behind what the kit gave up on: it bore that load, not its own 1 in flight.
    const target = oneWorker((url) => (isSearch(url) ? 900 : 5));
    const http = onFakeClock(target.answer, { concurrency: 8, timeoutMs: 1_000, sendAloneCap: 0 });
    const asks = ['a', 'b'].map((term) => ({ path: '/alert', query: { search: term } }));
    const sent = Promise.all(http.sendTogether('listAlerts', asks));
    const later = new Promise<Exchange>((resolve) =>
      setTimeout(() => resolve(http.send('listAlerts', '/alert', { search: 'late' })), 1_001),
    );
    const [[first, second], late] = await settle(Promise.all([sent, later]));
    expect(target.log.map((l) => [l.url, l.at])).toEqual([
      ['/alert?search=a', 0],
      ['/alert?search=b', 0],
      ['/alert?search=late', 1_001],
    ]);
    expect(first?.response?.status).toBe(200);
    expect(second).toMatchObject({ error: 'no complete response within 1000 ms', inFlight: 2, notSentAlone: true });
    expect(late).toMatchObject({ error: 'no complete response within 1000 ms', inFlight: 2, notSentAlone: true });
    // At 2 in flight and not sent again: a warning, never an error for the kit's own load.
    expect([second!, late!].flatMap(inspect).map((f) => f.severity)).toEqual(['warning', 'warning']);
  });

  it('adds up the requests given up on under load: a line many small failures built still weighs on one sent later', () => {
    // Four requests given up on half a second apart, each with 2 in flight: each may run a timeout more at a
    // target with one worker, so the line lasts until 5 s. The last failure's load alone (2 timeouts from 2.5 s)
    // would call a request started at 4.6 s alone; it started behind what the kit gave up on.
    vi.useFakeTimers({ toFake: ['performance'], now: 0 });
    const alone = createSendAlone({ timeoutMs: 1_000, cap: 0 } as Parameters<typeof createSendAlone>[0]);
    const failAt = (now: number, startedAt: number, inFlight: number) => {
      vi.setSystemTime(now);
      vi.advanceTimersByTime(now - performance.now());
      return alone.loadAt(startedAt, inFlight);
    };
    expect([failAt(1_000, 0, 2), failAt(1_500, 500, 2), failAt(2_000, 1_000, 2), failAt(2_500, 1_500, 2)]).toEqual([2, 2, 2, 3]);
    expect(failAt(5_600, 4_600, 1)).toBeGreaterThan(1);
    // Once the line has drained (that one given up on too), a request alone is alone.
    expect(failAt(7_700, 6_700, 1)).toBe(1);
  });

  it('does not send again a request that failed alone: that is the target', async () => {
    const target = oneWorker(() => Number.POSITIVE_INFINITY);
    const http = onFakeClock(target.answer, { concurrency: 8, timeoutMs: 1_000 });
    const exchange = await settle(http.send('listAlerts', '/alert', { page: '1' }));
    expect(exchange).toMatchObject({ error: 'no complete response within 1000 ms', inFlight: 1 });
    expect(exchange.firstUnderLoad).toBeUndefined();
    expect(target.log.length).toBe(1);
    expect(inspect(exchange)).toMatchObject([{ severity: 'error' }]);
  });
});

describe('response_received on a request sent again alone', () => {
  const request = { method: 'GET', url: 'http://t.test/alert?search=x', headers: {} };
  const first = (inFlight: number): Exchange => ({
    operationId: 'listAlerts',
    request,
    error: 'no complete response within 10000 ms',
    inFlight,
  });
  const alone = (inFlight: number): Exchange => ({
    operationId: 'listAlerts',
    request,
    inFlight: 1,
    response: { status: 200, headers: {}, text: '[]', json: [], durationMs: 1_200 },
    firstUnderLoad: first(inFlight),
  });

  it('warns when it failed with 2 or fewer in flight and answered alone, saying what it did alone', () => {
    expect(inspect(alone(2))).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'no complete response within 10000 ms with 2 in flight; alone it answered in 1.2 s',
      }),
    ]);
  });

  it('finds nothing when it failed only under heavier load', () => {
    expect(inspect(alone(3))).toEqual([]);
  });
});

describe('the HAR place of a request sent again alone', () => {
  it('comes after every other, so that sending one again never moves the others', () => {
    const places = [
      [0, 0, 0],
      [0, 0, 5],
      [1, 3, 2],
      [1, 3, 2, 1],
    ];
    const withAlone = [...places, sentAgainAlone([0, 0, 1])].sort(comparePlaces);
    expect(withAlone.slice(0, places.length)).toEqual(places);
    expect(comparePlaces(sentAgainAlone([0, 0, 1]), sentAgainAlone([0, 0, 2]))).toBeLessThan(0);
  });
});
