import type { ApiRecord, RecordFactory } from '../fixtures/record-factory.ts';
import type { RecordStore } from './record-store.ts';
import { searchCache } from './record-store.ts';
import { indexBuild } from './index-build.ts';
import { createSearchIndexBuilder, LAYOUT_SAMPLE, type SearchIndexBuilder } from './search-index.ts';

/**
 * Up to this many records, a search never waits: the first one finishes the index at once if the
 * background build has not. Past it, a search gets `{ warming }` until the index is built.
 */
export const SYNC_INDEX_LIMIT = 50_000;
const KEEP_LIMIT = 20_000;

/**
 * A store that holds no records: record i is generated from the seed when a page needs it, so a
 * million-record dataset starts at once. Search indexes are built in the background
 * from the start, one collection after another, in slices between requests (see inBackground). Until
 * a large collection's is ready, a search gets `{ warming }` (the server answers 503 with Retry-After);
 * a small collection's first search finishes its index at once (built whole in that search instead, it kept
 * every request waiting).
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
  // Record i into the index, its JSON made now too where records are kept: served pages then only join
  // (a fresh search's first hits cost a stringify each, in the first seconds of serving).
  const addRecord = (builder: SearchIndexBuilder, i: number) => {
    const made = record(i);
    builder.add(made);
    if (keptJson) keptJson[i] ??= JSON.stringify(made);
  };
  const sampleSize = Math.min(count, LAYOUT_SAMPLE);
  const sample = () => Array.from({ length: sampleSize }, (_, i) => record(i));
  const large = count > SYNC_INDEX_LIMIT;
  // Laid out from a sample: a large collection's now (a few tens of ms at start), a small one's once its
  // sample is made, in slices like the rest (its records are kept, so the sample costs nothing again).
  const packed = large ? createSearchIndexBuilder(sample(), pooledFields, { expected: count, packed: true }) : undefined;
  let sampled = 0;
  // A large index is built between requests and searched once done; a small collection's first search
  // finishes its index at once. On a Worker (no large collection there), a small one is indexed then.
  const build = indexBuild({
    count,
    layOut: () => packed ?? createSearchIndexBuilder(sample(), pooledFields),
    add: addRecord,
    trigrams: !large,
    // A small collection's sample is made in slices too; a large one's was made above.
    prepare: packed
      ? undefined
      : (until) => {
          while (sampled < sampleSize) {
            record(sampled++);
            if (performance.now() >= until) return false;
          }
          return true;
        },
    always: large,
  });
  const search = searchCache((term) => build.complete().search(term));

  return {
    page(term, start, end) {
      if (term === '') {
        const stop = Math.min(end, count);
        return { total: count, ...page(Array.from({ length: Math.max(0, stop - start) }, (_, k) => start + k)) };
      }
      if (large && !build.index()) return { warming: build.share() };
      const hits = search(term);
      return { total: hits.length, ...page(hits.subarray(start, end)) };
    },
    searchReady: () => (large ? build.share() : 1),
  };
}
