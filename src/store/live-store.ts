import { LRUCache } from 'lru-cache';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { type Collection, collectionsOf, countsOf } from '../fixtures/collections.ts';
import type { ApiRecord, RecordFactory } from '../fixtures/record-factory.ts';
import { type LiveCollection, liveCollection } from '../live/live-collection.ts';
import type { LiveSettings } from '../live/live-options.ts';
import { formatLiveRate } from '../live/live-rate.ts';
import type { DatasetOptions } from '../spec/records.ts';
import { AdmissionCache } from './admission-cache.ts';
import { type DatasetStore, EMPTY_STORE } from './dataset-store.ts';
import { SYNC_INDEX_LIMIT } from './generated-store.ts';
import { liveSearch } from './live-search.ts';
import { type PageResult, type RecordStore, TRIGRAM_LIMIT } from './record-store.ts';
import { searchTextOf } from './search-index.ts';

/** Settled records kept with their JSON, per collection: the newest pages, which dashboards poll. */
const KEPT = 5_000;
const CACHED_SEARCHES = 64;
/** Record numbers kept in all by a collection's cache of recent searches. */
const CACHED_HITS = 2_000_000;

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
    collectionsOf(document).map((c) => [c.key, liveStore(liveCollection(document, factory, c, counts[c.key] ?? 0, settings), c, clock)]),
  );
  const identity = `live:${options.seed}:${Object.entries(counts)
    .map(([k, n]) => `${k}=${n}`)
    .join(',')}:${formatLiveRate(settings.rate)}:${settings.anchor}`;
  return {
    collection: (key) => stores.get(key) ?? EMPTY_STORE,
    keys: () => [...stores.keys()],
    replace() {
      throw new Error('live data cannot be replaced');
    },
    identity,
    clock,
  };
}

interface Entry {
  readonly record: ApiRecord;
  readonly json: string;
}

/** One live collection's answers at a moment: pages, and searches over its window (see liveSearch). */
function liveStore(live: LiveCollection, collection: Collection, clock: () => number): RecordStore {
  // Only records that will not change again are kept: an arrival once settled, a seed's record that never moves.
  const kept = new LRUCache<number, Entry>({ max: Math.max(1, Math.min(KEPT, live.size * 2)) });
  let changingAt = Number.NaN;
  let changing: ReadonlySet<number> = new Set();
  const changingSet = (t: number) => {
    if (t !== changingAt) {
      changingAt = t;
      changing = new Set(live.unsettled(t));
    }
    return changing;
  };
  const entry = (r: number, t: number): Entry => {
    const moving = changingSet(t).has(r);
    const known = moving ? undefined : kept.get(r);
    if (known) return known;
    const record = live.record(r, t);
    const made: Entry = { record, json: JSON.stringify(record) };
    if (!moving) kept.set(r, made);
    return made;
  };
  // The search reads kept records without keeping or refreshing any: its scans and builds go through
  // thousands of records, and would push out the pages dashboards poll.
  const settledRecord = (r: number, t: number) => kept.peek(r)?.record ?? live.record(r, t);
  const search = liveSearch(
    live,
    (r, t) => searchTextOf(changingSet(t).has(r) ? live.record(r, t) : settledRecord(r, t)),
    settledRecord,
    clock,
    { pooledFields: collection.pooledFields, syncLimit: SYNC_INDEX_LIMIT, trigramLimit: TRIGRAM_LIMIT },
  );
  // A search's matches at a moment, for paging through them: keyed by the collection's count of changes.
  const recent = new AdmissionCache<number[]>({ max: CACHED_SEARCHES, maxSize: CACHED_HITS, sizeOf: (hits) => hits.length + 1 });
  const answer = (numbers: readonly number[], t: number, total: number): PageResult => {
    const entries = numbers.map((r) => entry(r, t));
    return { total, records: entries.map((e) => e.record), json: `[${entries.map((e) => e.json).join(',')}]` };
  };
  return {
    page(term, start, end, moment) {
      const t = moment ?? 0;
      const newest = live.arrived(t);
      search.advance(t);
      if (term === '') {
        const stop = Math.min(end, live.size);
        return answer(
          Array.from({ length: Math.max(0, stop - start) }, (_, k) => newest - start - k),
          t,
          live.size,
        );
      }
      const needle = term.toLowerCase();
      const key = `${live.events(t)}:${newest}:${needle}`;
      let hits = recent.get(key);
      if (!hits) {
        const found = search.search(needle, t);
        if (!Array.isArray(found)) return found;
        hits = found;
        recent.offer(key, hits);
      }
      return answer(hits.slice(start, end), t, hits.length);
    },
    searchReady: () => search.ready(),
    searchBacklog: () => search.backlog(),
    events: (moment) => live.events(moment),
  };
}
