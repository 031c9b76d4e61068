import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/create-app.ts';
import { get, KEY, spec } from '../helpers.ts';

const ANCHOR = Date.parse('2026-11-01T06:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A clock the test moves by hand: no test reads the wall clock. */
function handClock(start: number) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

const liveApp = (clock: number | (() => number), counts = { alerts: 120, sensors: 150 }, rate = '4/s') =>
  createApp({ spec, dataset: { seed: 5, counts }, live: { rate, clock } });

describe('the mock in live mode', () => {
  it('answers at the anchor with the bytes of the data that holds still, stating its moment', async () => {
    const still = createApp({ spec, dataset: { seed: 5, counts: { alerts: 120, sensors: 150 } } });
    const live = liveApp(ANCHOR);
    for (const path of ['/alert?pageSize=100&page=2', '/sensor?pageSize=30', '/alert?search=rtm']) {
      const [a, b] = [await get(still, path), await get(live, path)];
      expect(await b.text()).toBe(await a.text());
      expect(b.headers.get('tempmon-moment')).toBe(iso(ANCHOR));
      expect(a.headers.get('tempmon-moment')).toBeNull();
    }
  });

  it('answers as a frozen clock at the moment its header states', async () => {
    const clock = handClock(ANCHOR + 2 * HOUR + 123);
    const moving = liveApp(clock.read);
    for (const step of [0, 250, 1_000, 77_777]) {
      clock.now += step;
      for (const path of ['/alert?pageSize=50', '/sensor?pageSize=100', '/alert?search=trig&pageSize=5&page=2']) {
        const answer = await get(moving, path);
        const moment = Date.parse(answer.headers.get('tempmon-moment')!);
        expect(moment).toBe(clock.now);
        const frozen = await get(liveApp(moment), path);
        expect(await answer.text()).toBe(await frozen.text());
        expect(answer.headers.get('x-total-count')).toBe(frozen.headers.get('x-total-count'));
        expect(answer.headers.get('etag')).toBe(frozen.headers.get('etag'));
      }
    }
  });

  it('takes the moment when it takes the request, before a delay', async () => {
    let reads = 0;
    const app = liveApp(() => ANCHOR + HOUR + 1_000 * reads++);
    // The store reads the clock once as it starts (the moment its first index is built for).
    const before = reads;
    const answer = await app.request('/alert', { headers: { 'x-api-key': KEY, prefer: 'delay=20' } });
    expect(answer.headers.get('tempmon-moment')).toBe(iso(ANCHOR + HOUR + 1_000 * before));
    expect(reads - before).toBe(1);
  });

  it('changes the ETag whenever the bytes change, and never answers a changed page with 304', async () => {
    const clock = handClock(ANCHOR + HOUR);
    const app = liveApp(clock.read);
    const last = await get(app, '/alert?pageSize=20');
    let [body, etag] = [await last.text(), last.headers.get('etag')!];
    let [changes, unchanged] = [0, 0];
    // The same page with its tag, every 97 ms for about 6 s: arrivals (4/s) change it often.
    for (let i = 0; i < 60; i += 1) {
      clock.now += 97;
      const again = await app.request('/alert?pageSize=20', { headers: { 'x-api-key': KEY, 'if-none-match': etag } });
      if (again.status === 304) {
        // Not modified: the same bytes as the page with that tag, at this moment.
        const full = await get(app, '/alert?pageSize=20');
        expect(await full.text()).toBe(body);
        unchanged += 1;
        continue;
      }
      // A new tag: the collection changed somewhere, if not always on this page.
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).not.toBe(etag);
      const now = await again.text();
      if (now !== body) changes += 1;
      [body, etag] = [now, again.headers.get('etag')!];
    }
    expect(changes).toBeGreaterThan(5);
    expect(unchanged).toBeGreaterThan(0);
  });

  it('never replays an answer of another moment from a cache', async () => {
    const clock = handClock(ANCHOR + 3 * HOUR);
    const app = liveApp(clock.read, { alerts: 40, sensors: 10 });
    // Asked three times (the caches admit from a second sight), then the clock moves past arrivals.
    for (let i = 0; i < 3; i += 1) await get(app, '/alert?pageSize=5');
    const before = await (await get(app, '/alert?pageSize=5')).json();
    clock.now += 5_000;
    const after = (await (await get(app, '/alert?pageSize=5')).json()) as { id: string }[];
    expect(after).not.toEqual(before);
    expect(JSON.stringify(after)).toBe(await (await get(liveApp(clock.now, { alerts: 40, sensors: 10 }), '/alert?pageSize=5')).text());
  });

  it('agrees with itself at one moment: search, paging, X-Total-Count and Link', async () => {
    const app = liveApp(ANCHOR + 30 * 86_400_000);
    const all = (await (await get(app, '/alert?pageSize=100&search=air')).json()) as { id: string }[];
    const first = await get(app, '/alert?pageSize=7&search=air');
    expect(Number(first.headers.get('x-total-count'))).toBe(all.length);
    expect(first.headers.get('link')).toContain(`page=${Math.ceil(all.length / 7)}`);
    const pages: { id: string }[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 7); page += 1)
      pages.push(...((await (await get(app, `/alert?pageSize=7&search=air&page=${page}`)).json()) as { id: string }[]));
    expect(pages.map((r) => r.id)).toEqual(all.map((r) => r.id));
  });

  it('is ready at once and stays ready', async () => {
    const clock = handClock(ANCHOR + HOUR);
    const app = liveApp(clock.read);
    for (let i = 0; i < 5; i += 1) {
      clock.now += 10_000;
      expect((await app.request('/readyz')).status).toBe(200);
      await get(app, '/alert?search=x');
    }
  });

  it('refuses live mode over a data file, a rate that is not one, and an early anchor or clock', () => {
    expect(() => createApp({ spec, data: { alerts: [], sensors: [] }, live: {} })).toThrow(/generated data/);
    expect(() => createApp({ spec, live: { rate: '3/week' } })).toThrow(/3\/min or 5\/s/);
    expect(() => createApp({ spec, live: { since: ANCHOR - 1 } })).toThrow(/or later/);
    expect(() => createApp({ spec, live: { clock: ANCHOR - 1 } })).toThrow(/frozen clock/);
  });
});
