import type { ApiRecord, RecordFactory } from '../fixtures/record-factory.ts';
import type { RecordStore } from './record-store.ts';
import { searchCache } from './record-store.ts';
import { createSearchIndexBuilder, type SearchIndex } from './search-index.ts';

/** Up to this many records, the search index is built when the first search arrives. */
export const SYNC_INDEX_LIMIT = 50_000;
const SLICE_MS = 0.3;
const KEEP_LIMIT = 20_000;
const SAMPLE = 2_000;

/** Background builds waiting their turn: one at a time, so two collections never grow at once. */
const builds: (() => boolean)[] = [];

/** Runs `slice` between requests until it returns true, after the builds queued before it. */
function inBackground(slice: () => boolean): void {
  builds.push(slice);
  if (builds.length > 1) return;
  const step = () => {
    if (builds[0]!()) builds.shift();
    if (builds.length > 0) setImmediate(step);
  };
  setImmediate(step);
}

/**
 * A store that holds no records: record i is generated from the seed when a page needs it (about
 * 10 µs each), so a million-record dataset starts at once. A large collection's search index is built
 * in the background, one collection after another, in slices of 0.3 ms (SLICE_MS) between requests;
 * until it is ready, a search gets `{ warming }` (the server answers 503 with Retry-After).
 */
export function createGeneratedStore(
  factory: RecordFactory,
  schema: string,
  count: number,
  /** Fields drawn from small sets (see DomainBuilder); found from a sample when undefined. */
  pooledFields?: readonly string[],
): RecordStore {
  // A small collection keeps each record once made (a few MB); a large one makes them again when asked.
  const kept: (ApiRecord | undefined)[] | undefined = count <= KEEP_LIMIT ? new Array(count) : undefined;
  const keptJson: (string | undefined)[] | undefined = kept ? new Array(count) : undefined;
  const record = kept ? (i: number) => (kept[i] ??= factory.record(schema, i)) : (i: number) => factory.record(schema, i);
  // A kept record's JSON is kept too: a page is then joined, not stringified again.
  const page = (indices: ArrayLike<number>) => {
    const records = Array.from(indices, record);
    if (!keptJson) return { records };
    return { records, json: `[${Array.from(indices, (i, k) => (keptJson[i] ??= JSON.stringify(records[k]))).join(',')}]` };
  };
  const sample = () => Array.from({ length: Math.min(count, SAMPLE) }, (_, i) => record(i));
  let index: SearchIndex | undefined;
  let built = 0;

  if (count > SYNC_INDEX_LIMIT) {
    // Laid out now, from a sample (a few tens of ms at start), rather than in a slice.
    const builder = createSearchIndexBuilder(sample(), pooledFields, { expected: count, packed: true });
    inBackground(() => {
      // The clock is read after every record (about 10 µs): a request never waits much past SLICE_MS.
      const until = performance.now() + SLICE_MS;
      do builder.add(record(built++));
      while (built < count && performance.now() < until);
      if (built < count) return false;
      index = builder.finish();
      return true;
    });
  }

  const search = searchCache((term) => {
    if (!index) {
      const builder = createSearchIndexBuilder(sample(), pooledFields);
      for (let i = 0; i < count; i += 1) builder.add(record(i));
      index = builder.finish({ trigrams: true });
    }
    return index.search(term);
  });

  return {
    page(term, start, end) {
      if (term === '') {
        const stop = Math.min(end, count);
        return { total: count, ...page(Array.from({ length: Math.max(0, stop - start) }, (_, k) => start + k)) };
      }
      if (!index && count > SYNC_INDEX_LIMIT) return { warming: built / count };
      const hits = search(term);
      return { total: hits.length, ...page(hits.subarray(start, end)) };
    },
    searchReady: () => (index || count <= SYNC_INDEX_LIMIT ? 1 : built / count),
  };
}
