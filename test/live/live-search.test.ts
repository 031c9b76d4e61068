import { describe, expect, it } from 'vitest';
import { createRecordFactory } from '../../src/fixtures/record-factory.ts';
import { type LiveCollection, liveCollection } from '../../src/live/live-collection.ts';
import { EARLIEST_ANCHOR } from '../../src/live/live-options.ts';
import { parseLiveRate } from '../../src/live/live-rate.ts';
import { collectionFor } from '../../src/fixtures/collections.ts';
import { liveSearch } from '../../src/store/live-search.ts';
import { createLiveDatasetStore } from '../../src/store/live-store.ts';
import type { RecordStore } from '../../src/store/record-store.ts';
import { searchTextOf } from '../../src/store/search-index.ts';
import { spec } from '../helpers.ts';

const ANCHOR = EARLIEST_ANCHOR;
const SEED = 5;
/** A window small enough to scan by hand, a rate fast enough to turn it over in seconds. */
const COUNTS = { alerts: 300, sensors: 400 };
const RATE = '50/s';
/** Terms that hit many records, few, one, or none; a status that changes; hex digits of ids and timestamps. */
const TERMS = ['a', 'e1', 'freezer', 'acknowledged', 'triggered', 'resolved', 'offline', '2026-11-0', 'zzzq', '-4', 'pharma'];

const liveOf = (schema: string, count: number): LiveCollection =>
  liveCollection(spec.document, createRecordFactory(spec.document, SEED), collectionFor(spec.document, schema), count, {
    rate: parseLiveRate(RATE)!,
    anchor: ANCHOR,
  });

/** Every record of the window at t holding the term, newest first: the search by hand. */
function byHand(live: LiveCollection, term: string, t: number): string[] {
  const n = live.arrived(t);
  const needle = term.toLowerCase();
  return Array.from({ length: live.size }, (_, p) => live.record(n - p, t))
    .filter((r) => searchTextOf(r).includes(needle))
    .map((r) => JSON.stringify(r));
}

function searched(store: RecordStore, term: string, t: number): string[] {
  const result = store.page(term, 0, 1_000_000, t);
  if ('warming' in result) throw new Error('the index is still warming');
  expect(result.total).toBe(result.records.length);
  return result.records.map((r) => JSON.stringify(r));
}

const liveStore = (clock: () => number) =>
  createLiveDatasetStore(
    createRecordFactory(spec.document, SEED),
    { seed: SEED, counts: COUNTS },
    spec.document,
    { rate: parseLiveRate(RATE)!, anchor: ANCHOR },
    clock,
  );

/** Lets the blocks queued between requests be built. */
const betweenRequests = (turns: number) =>
  new Promise<void>((resolve) => {
    let left = turns;
    const turn = () => (--left <= 0 ? resolve() : setImmediate(turn));
    setImmediate(turn);
  });

describe("a live collection's search", () => {
  it('finds what a scan of the window at t finds, as the window turns over and blocks are sealed', async () => {
    let now = ANCHOR + 2_000;
    const store = liveStore(() => now);
    const alerts = liveOf('Alert', COUNTS.alerts);
    const sensors = liveOf('Sensor', COUNTS.sensors);
    // Forward by uneven steps, well past a whole window's turnover (300 arrivals at 50/s: 6 s), sometimes
    // asking before the blocks sealed so far are built, sometimes after.
    for (const step of [0, 37, 1_000, 1_500, 3, 4_000, 2_500, 250, 9_000, 60_000, 11]) {
      now += step;
      for (const term of TERMS) {
        expect(searched(store.collection('alerts'), term, now), `alerts "${term}" at +${now - ANCHOR} ms`).toEqual(
          byHand(alerts, term, now),
        );
        expect(searched(store.collection('sensors'), term, now), `sensors "${term}" at +${now - ANCHOR} ms`).toEqual(
          byHand(sensors, term, now),
        );
      }
      if (step % 2 === 0) await betweenRequests(50);
    }
    // The terms did find something, and something the seed's data alone did not hold.
    const found = searched(store.collection('alerts'), 'resolved', now);
    expect(found.length).toBeGreaterThan(10);
    expect(found.some((json) => Date.parse(JSON.parse(json).created_at) > ANCHOR)).toBe(true);
  });

  it('answers for a moment earlier than the last, as a clock moved back by hand would ask', async () => {
    let now = ANCHOR + 30_000;
    const store = liveStore(() => now);
    const alerts = liveOf('Alert', COUNTS.alerts);
    for (const t of [ANCHOR + 30_000, ANCHOR + 90_000, ANCHOR + 20_000, ANCHOR + 1, ANCHOR + 90_500]) {
      now = t;
      for (const term of TERMS)
        expect(searched(store.collection('alerts'), term, t), `"${term}" at +${t - ANCHOR} ms`).toEqual(byHand(alerts, term, t));
      await betweenRequests(50);
    }
  });

  it('says ready once its first build is done, and stays ready while blocks are sealed', async () => {
    let now = ANCHOR + 1_000;
    const store = liveStore(() => now);
    const alerts = store.collection('alerts');
    searched(alerts, 'a', now);
    expect(alerts.searchReady()).toBe(1);
    for (let i = 0; i < 20; i += 1) {
      now += 700;
      searched(alerts, 'e1', now);
      expect(alerts.searchReady()).toBe(1);
    }
  });

  it('in a large window, waits for its first build, then is ready for good, packed as a large index is', async () => {
    const alerts = liveOf('Alert', COUNTS.alerts);
    let now = ANCHOR + 3_000;
    const texts = new Map<string, string>();
    const text = (r: number, t: number) => {
      const key = `${r}@${t}`;
      if (!texts.has(key)) texts.set(key, searchTextOf(alerts.record(r, t)));
      return texts.get(key)!;
    };
    // 300 records counted as many (syncLimit 100): the index is packed, built between requests only.
    const search = liveSearch(alerts, text, alerts.record, () => now, { syncLimit: 100, trigramLimit: 0 });
    const numbersByHand = (term: string, t: number) => byHand(alerts, term, t).map((json) => JSON.parse(json).id);
    const idsOf = (found: number[]) => found.map((r) => alerts.record(r, now).id);
    expect(search.search('a', now)).toEqual({ warming: expect.any(Number) });
    expect(search.ready()).toBeLessThan(1);
    // Arrivals go on while it builds and while /readyz is polled: it gets ready all the same.
    for (let turns = 0; search.ready() < 1 && turns < 10_000; turns += 1) {
      now += 100;
      await betweenRequests(1);
    }
    expect(search.ready()).toBe(1);
    for (const step of [0, 2_000, 7_000, 400, 30_000]) {
      now += step;
      for (const term of TERMS) {
        const found = search.search(term, now);
        if (!Array.isArray(found)) throw new Error(`warming again at +${now - ANCHOR} ms`);
        expect(idsOf(found), `"${term}" at +${now - ANCHOR} ms`).toEqual(numbersByHand(term, now));
      }
      expect(search.ready()).toBe(1);
      await betweenRequests(20);
    }
  });
});
