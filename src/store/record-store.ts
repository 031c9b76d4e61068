import type { ApiRecord } from '../spec/records.ts';
import { AdmissionCache } from './admission-cache.ts';
import { indexBuild } from './index-build.ts';
import { createSearchIndexBuilder, LAYOUT_SAMPLE } from './search-index.ts';

/** One page of the records matching a term, with how many match in all. */
export interface PageResult {
  readonly total: number;
  readonly records: readonly ApiRecord[];
  /** The records as a JSON array, when the store keeps each record's JSON (saves stringifying again). */
  readonly json?: string;
}

/** The search index is still being built; `done` is the share built so far (0..1). */
export interface Warming {
  readonly warming: number;
}

/** The records of one collection, in the documented order, with case-insensitive search. */
export interface RecordStore {
  /** Matches start..end-1 of `term` (every record for an empty term); live data as it is at `moment` (ms). */
  page(term: string, start: number, end: number, moment?: number): PageResult | Warming;
  /** The share of the search index built (0..1): 1 once a search can be answered without waiting. */
  searchReady(): number;
  /**
   * Live data only: how many settled records of the window no built part of the index holds yet, which
   * every search scans (see LiveSearch.backlog).
   */
  searchBacklog?(): number;
  /**
   * Live data only: how many changes the collection has seen by `moment`. Every cache key and ETag of its
   * answers holds it, so no cache replays an answer of another moment.
   */
  events?(moment: number): number;
}

const CACHED_TERMS = 64;
/** Up to this many records, searches use trigram postings (they cost a few times the text's size). */
export const TRIGRAM_LIMIT = 50_000;

/**
 * Remembers the matches of recent terms (least recently used goes first), so paging through the
 * results of one search does not search again. A term's matches are kept from its second search on: a
 * term searched once (a new one per keystroke or per request) evicts nothing.
 */
export function searchCache(search: (term: string) => Uint32Array): (term: string) => Uint32Array {
  const recent = new AdmissionCache<Uint32Array>({ max: CACHED_TERMS });
  return (term) => {
    let hits = recent.get(term);
    if (!hits) {
      hits = search(term);
      recent.offer(term, hits);
    }
    return hits;
  };
}

/**
 * A store over records held in memory (a data file). Its search index is built in the background from
 * the start, as generated collections' are (see indexBuild); the first search finishes what is left at
 * once, so a search never waits (a first search that indexed all of a data file kept every request
 * waiting).
 */
export function createRecordStore(records: readonly ApiRecord[]): RecordStore {
  const build = indexBuild({
    count: records.length,
    layOut: () => createSearchIndexBuilder(records.slice(0, LAYOUT_SAMPLE)),
    add: (builder, i) => builder.add(records[i]!),
    trigrams: records.length <= TRIGRAM_LIMIT,
  });
  const search = searchCache((term) => build.complete().search(term));
  return {
    page(term, start, end) {
      if (term === '') return { total: records.length, records: records.slice(start, end) };
      const hits = search(term);
      return { total: hits.length, records: Array.from(hits.subarray(start, end), (i) => records[i]!) };
    },
    searchReady: () => 1,
  };
}
