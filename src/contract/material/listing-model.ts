import { LRUCache } from 'lru-cache';
import { identity } from '../records.ts';
import { listingTotal, pagesHolding, sizeExchanges, type Listing } from '../model/listing.ts';
import type { Exchange } from '../types.ts';

/** The listing as read by the kit, with what the spec's assumed search rule expects of it. */
export interface ListingModel {
  readonly records: readonly Record<string, unknown>[];
  readonly ids: readonly string[];
  /** True when the listing was read to its end: only then are expectations about the whole made. */
  readonly complete: boolean;
  /** The exchanges of the pages it was read from (what an expectation drawn from it rests on). */
  readonly pageExchanges: readonly Exchange[];
  /** The exchanges its number of records rests on: every page when complete, else those that found its end. */
  readonly sizeExchanges: readonly Exchange[];
  /** The exchanges of the pages read that hold records `start`..`start + count - 1`. */
  pagesHolding(start: number, count: number): readonly Exchange[];
  /** The listing's number of records when known (read to its end, or its end found past --max-pages). */
  readonly total: number | undefined;
  /** Distinct searchable strings of the records, in first-seen order (the pool terms are drawn from). */
  readonly values: readonly string[];
  /** Whether a record with this id was read. */
  has(id: string): boolean;
  /** The records read that the assumed rule finds for `term`, in listing order (all of them for an empty term). */
  matches(term: string): readonly Record<string, unknown>[];
  /** How many records `term` finds: exact when the listing is complete or the term empty, else those read. */
  count(term: string): number;
}

/** The strings a search looks at in a record: string fields and the strings of array fields. */
export function searchableStrings(record: Record<string, unknown>): string[] {
  return Object.values(record)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((v): v is string => typeof v === 'string');
}

/**
 * Builds the model. The matching rule is the spec's assumption for the search parameter: a
 * case-insensitive substring of any string field (or string element of an array field); empty means
 * no filter. Results keep the listing's order.
 */
export function createListingModel(listing: Listing): ListingModel {
  const records = listing.records;
  const ids = records.map(identity);
  const idSet = new Set(ids);
  const haystacks = records.map((r) => searchableStrings(r).map((s) => s.toLowerCase()));
  const values = [...new Set(records.flatMap(searchableStrings).filter((s) => s.length > 0))];
  // Recomputed when let go: a long run's terms must not each keep a list of records.
  const cache = new LRUCache<string, readonly Record<string, unknown>[]>({ max: 256 });
  return {
    records,
    ids,
    complete: listing.complete,
    pageExchanges: listing.pageExchanges,
    sizeExchanges: sizeExchanges(listing),
    pagesHolding: (start, count) => pagesHolding(listing, start, count),
    total: listingTotal(listing),
    values,
    has: (id) => idSet.has(id),
    matches(term) {
      if (term === '') return records;
      const needle = term.toLowerCase();
      let found = cache.get(needle);
      if (!found) {
        found = records.filter((_, i) => haystacks[i]!.some((s) => s.includes(needle)));
        cache.set(needle, found);
      }
      return found;
    },
    count(term) {
      return term === '' ? (listingTotal(listing) ?? records.length) : this.matches(term).length;
    },
  };
}
