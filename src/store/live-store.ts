import { LRUCache } from 'lru-cache';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { collectionsOf, countsOf } from '../fixtures/collections.ts';
import type { ApiRecord, RecordFactory } from '../fixtures/record-factory.ts';
import { formatLiveRate } from '../live/live-rate.ts';
import { type LiveCollection, liveCollection } from '../live/live-collection.ts';
import type { LiveSettings } from '../live/live-options.ts';
import type { DatasetOptions } from '../spec/records.ts';
import type { DatasetStore } from './dataset-store.ts';
import { createRecordStore, type PageResult, type RecordStore } from './record-store.ts';
import { recordHolds } from './search-index.ts';

/** Settled records kept with their JSON, per collection. */
const KEPT = 50_000;

/**
 * A store of live data (see src/live/): each collection as it is at the moment a request was taken, read from
 * `clock` (Date.now, or a frozen instant). Records that will not change again are kept with their JSON.
 *
 * @example
 * const store = createLiveDatasetStore(factory, { seed: 1 }, document, { rate, anchor }, () => Date.now());
 * store.collection('alerts').page('', 0, 20, store.clock!());
 */
export function createLiveDatasetStore(
  factory: RecordFactory,
  options: DatasetOptions,
  document: OpenAPIObject,
  settings: LiveSettings,
  clock: () => number,
): DatasetStore {
  const counts = countsOf(document, options.counts);
  const stores = new Map(
    collectionsOf(document).map((c) => [c.key, liveStore(liveCollection(document, factory, c, counts[c.key] ?? 0, settings))]),
  );
  const identity = `live:${options.seed}:${Object.entries(counts)
    .map(([k, n]) => `${k}=${n}`)
    .join(',')}:${formatLiveRate(settings.rate)}:${settings.anchor}`;
  const empty = createRecordStore([]);
  return {
    collection: (key) => stores.get(key) ?? empty,
    keys: () => [...stores.keys()],
    replace() {
      throw new Error('live data cannot be replaced');
    },
    identity,
    clock,
  };
}

/** One live collection's answers at a moment: pages, and searches over every record of its window. */
function liveStore(live: LiveCollection): RecordStore {
  const kept = new LRUCache<number, { record: ApiRecord; json: string }>({ max: Math.max(1, Math.min(KEPT, live.size * 2)) });
  const entry = (r: number, t: number, unsettled: ReadonlySet<number>) => {
    const known = kept.get(r);
    if (known) return known;
    const record = live.record(r, t);
    const made = { record, json: JSON.stringify(record) };
    if (!unsettled.has(r)) kept.set(r, made);
    return made;
  };
  const answer = (numbers: readonly number[], t: number, unsettled: ReadonlySet<number>, total: number): PageResult => {
    const entries = numbers.map((r) => entry(r, t, unsettled));
    return { total, records: entries.map((e) => e.record), json: `[${entries.map((e) => e.json).join(',')}]` };
  };
  return {
    page(term, start, end, moment) {
      const t = moment ?? 0;
      const newest = live.arrived(t);
      const unsettled = new Set(live.unsettled(t));
      if (term === '') {
        const stop = Math.min(end, live.size);
        return answer(
          Array.from({ length: Math.max(0, stop - start) }, (_, k) => newest - start - k),
          t,
          unsettled,
          live.size,
        );
      }
      const needle = term.toLowerCase();
      const hits: number[] = [];
      for (let p = 0; p < live.size; p += 1) if (recordHolds(entry(newest - p, t, unsettled).record, needle)) hits.push(newest - p);
      return answer(hits.slice(start, end), t, unsettled, hits.length);
    },
    searchReady: () => 1,
    events: (moment) => live.events(moment),
  };
}
