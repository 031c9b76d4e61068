import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit, type ConcurrencyLimit } from '../../../src/contract/client/concurrency-limit.ts';

/**
 * `n` requests of `kind` ending, each started with as many of its kind in flight as the kind's limit lets go, and
 * the limit of all filled (by other kinds); `latencyMs` of the kind's requests in flight.
 */
const answer = (limit: ConcurrencyLimit, n: number, kind: string, latencyMs: (kindInFlight: number) => number, failed = false) => {
  for (let i = 0; i < n; i += 1) {
    const kindInFlight = limit.currentOf(kind);
    limit.sample({ kind, latencyMs: latencyMs(kindInFlight), inFlight: limit.current(), kindInFlight, failed });
  }
};
/** The changes of the limit of all (not of a kind's own). */
const ofAll = (limit: ConcurrencyLimit) => limit.changes.filter((c) => c.kind === undefined);

describe('the limit of requests in flight, learned from the target', () => {
  it('starts at 2 and climbs to the ceiling while latency holds, as a far target with constant latency does', () => {
    const limit = createConcurrencyLimit(8);
    expect(limit.current()).toBe(2);
    answer(limit, 100, '/alert page', () => 150);
    expect(limit.current()).toBe(8);
    expect(limit.currentOf('/alert page')).toBe(8);
    expect(ofAll(limit).map((c) => c.to)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(limit.changes.filter((c) => c.kind === '/alert page').map((c) => c.to)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(createConcurrencyLimit(1).current()).toBe(1);
  });

  it('halves on a 502/503/504 and stays below the load that got it: a gateway shedding past 3 in flight', () => {
    const limit = createConcurrencyLimit(8);
    for (let i = 0; i < 300; i += 1) {
      const inFlight = limit.current();
      limit.sample({ kind: '/alert page', latencyMs: 20, inFlight, failed: inFlight > 3, shed: inFlight > 3 });
    }
    expect(limit.current()).toBe(3);
    expect(ofAll(limit).filter((c) => c.from === 3 && c.to === 4)).toHaveLength(1);
    expect(ofAll(limit).find((c) => c.to < c.from)?.why).toBe('a 502/503/504 with 4 in flight: at most 3 from then on');
    // The 503 came back alone too: the request's own answer, not load shed; the limit climbs again.
    limit.notShed(4);
    answer(limit, 100, '/alert page', () => 20);
    expect(limit.current()).toBe(8);
  });

  it('settles where latency starts to grow with what is in flight (a server that queues past 4)', () => {
    const limit = createConcurrencyLimit(8);
    // 35 ms alone; each request past 4 in flight waits for one ahead of it.
    answer(limit, 300, '/alert page', (n) => 35 * Math.max(1, n - 3));
    expect(limit.currentOf('/alert page')).toBeGreaterThanOrEqual(4);
    expect(limit.currentOf('/alert page')).toBeLessThanOrEqual(6);
    expect(
      limit.changes.some((c) => c.to < c.from && /^\/alert page: took .* with \d+ of its kind in flight, 35 ms alone$/.test(c.why)),
    ).toBe(true);
    // Queueing is the kind's own: the limit of all climbs to the ceiling.
    expect(limit.current()).toBe(8);
  });

  it('judges each kind by its own unloaded latency: a 1.8 s search is no queueing beside a 35 ms page', () => {
    const limit = createConcurrencyLimit(8);
    for (let i = 0; i < 40; i += 1) {
      answer(limit, 1, '/alert page', () => 35);
      answer(limit, 1, '/alert search', () => 1800);
    }
    expect(limit.current()).toBe(8);
    expect(limit.unloaded()).toEqual(
      new Map([
        ['/alert page', 35],
        ['/alert search', 1800],
      ]),
    );
  });

  it('holds searches near what the target runs at once while pages go wide (a database running 2 searches at once)', () => {
    const limit = createConcurrencyLimit(8);
    const search = (n: number) => 1800 * Math.max(1, n / 2);
    // The run times a search alone first (see planRun).
    limit.sample({ kind: '/alert search', latencyMs: 1800, inFlight: 1, failed: false });
    for (let i = 0; i < 400; i += 1) {
      answer(limit, 3, '/alert page', () => 35);
      answer(limit, 1, '/alert search', search);
    }
    expect(limit.current()).toBe(8);
    expect(limit.currentOf('/alert page')).toBe(8);
    // 4 at once took twice as long as alone: held at 3 from then on, never climbing back to where it queued.
    expect(limit.kinds().get('/alert search')).toEqual({ end: 3, lowest: 2, highest: 4, queuedAt: 4 });
    const searches = limit.changes.filter((c) => c.kind === '/alert search');
    expect(searches.map((c) => c.to)).toEqual([3, 4, 3]);
    expect(searches.at(-1)?.why).toBe('/alert search: 3.6 s (median) with 4 of its kind in flight, 1.8 s alone: at most 3 from then on');
  });

  it('never holds a fast kind whose latency jitters whatever its load (pages beside seconds-long searches)', () => {
    const limit = createConcurrencyLimit(8);
    // 30 ms at best, most often 60-140 ms: the other kinds' load, not the pages' own.
    const jitter = [30, 60, 140, 90, 120, 70, 100, 130];
    for (let i = 0; i < 400; i += 1) {
      const latencyMs = jitter[i % jitter.length]!;
      // One in five goes with nothing else in flight: its time alone jitters just the same.
      if (i % 5 === 0) limit.sample({ kind: '/alert page', latencyMs, inFlight: 1, failed: false });
      else answer(limit, 1, '/alert page', () => latencyMs);
    }
    expect(limit.kinds().get('/alert page')).toMatchObject({ end: 8, highest: 8 });
    expect(limit.kinds().get('/alert page')?.queuedAt).toBeUndefined();
  });

  it('holds a kind below the load at which it timed out, and the limit of all halves but climbs back', () => {
    const limit = createConcurrencyLimit(8);
    answer(limit, 100, '/alert page', () => 30);
    // Searches time out with 4 or more of them in flight.
    for (let i = 0; i < 200; i += 1) {
      answer(limit, 3, '/alert page', () => 30);
      const n = limit.currentOf('/alert search');
      limit.sample({
        kind: '/alert search',
        latencyMs: n >= 4 ? 10_000 : 1800,
        inFlight: limit.current(),
        kindInFlight: n,
        failed: n >= 4,
      });
    }
    expect(limit.kinds().get('/alert search')).toMatchObject({ end: 3, queuedAt: 4, highest: 4 });
    expect(limit.changes.filter((c) => c.kind === '/alert search' && c.from === 3 && c.to === 4)).toHaveLength(1);
    expect(limit.current()).toBe(8);
  });

  it('halves on a timeout, once per window, and climbs again when latency recovers', () => {
    const limit = createConcurrencyLimit(8);
    answer(limit, 100, '/alert page', () => 30);
    expect(limit.current()).toBe(8);
    answer(limit, 8, '/alert search', () => 10_000, true);
    expect(limit.current()).toBe(4);
    expect(ofAll(limit).at(-1)?.why).toBe('a request timed out or was reset with 8 in flight');
    answer(limit, 100, '/alert page', () => 30);
    expect(limit.current()).toBe(8);
  });

  it('after a 429 it stays at one request in flight, whatever latency does', () => {
    const limit = createConcurrencyLimit(8);
    limit.pin(1, 'a 429');
    answer(limit, 100, '/alert page', () => 5);
    expect(limit.current()).toBe(1);
  });
});
