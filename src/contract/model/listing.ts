// A listing as the kit read it (its prefix, its end) and what a check may conclude from how much was read.
import type { Exchange } from '../types.ts';
import { type Skip, notApplicable, noEvidence } from './skip.ts';

/** A page of the listing as the kit read it, at the listing's page size. */
export interface ReadPage {
  readonly page: number;
  readonly records: readonly Record<string, unknown>[];
  readonly exchange: Exchange;
}

/** Where a listing longer than --max-pages ends, found in O(log n) requests (see `model/read-listing.ts`). */
export interface ListingEnd {
  /** Records up to the end: (last page - 1) * size + the last page's length. */
  readonly total: number;
  /** The last page with records. */
  readonly last: ReadPage;
  /** A page after the last whose records all repeat the last page's: records past the end. */
  readonly repeated?: ReadPage;
  /** The pages with records read from the prefix's last page on (it, the search for the end, sampled pairs), by number. */
  readonly pages: readonly ReadPage[];
}

/** The records of an operation, read page by page at the largest page size. */
export interface Listing {
  /** The records read: all of them when `complete`, else the first `pages` pages (the prefix). */
  readonly records: readonly Record<string, unknown>[];
  /** False when --max-pages stopped the enumeration before the end. */
  readonly complete: boolean;
  /** Why the listing could not be read, when a page was not a 200 array. */
  readonly problem?: string;
  /** A record seen on two pages (the first repeat), when the listing's pages overlap. */
  readonly repeated?: { readonly id: string; readonly page: number };
  /** Pages requested to read the prefix. */
  readonly pages: number;
  /** The exchanges of the prefix's pages, in page order (what a finding about the listing rests on). */
  readonly pageExchanges: readonly Exchange[];
  /** The page size it was read at, and the --max-pages that bounded it. */
  readonly size: number;
  readonly maxPages: number;
  /** For a listing longer than --max-pages: where it ends. */
  readonly end?: ListingEnd;
  /** For a listing longer than --max-pages whose end could not be found: why. */
  readonly endProblem?: string;
}

/**
 * The exchanges the listing's size rests on: every page read when it was read to its end, else the pages read
 * far in to find its end.
 */
export const sizeExchanges = (listing: Listing): readonly Exchange[] =>
  listing.complete ? listing.pageExchanges : (listing.end?.pages.map((p) => p.exchange) ?? []);

/**
 * The exchanges of the listing's pages that hold its records `start`..`start + count - 1` (those read).
 *
 * @example
 * pagesHolding(listing, 150, 2); // the page of size 100 holding records 150 and 151: [page 2]
 */
export const pagesHolding = (listing: Pick<Listing, 'pageExchanges' | 'size'>, start: number, count: number): readonly Exchange[] =>
  listing.pageExchanges.slice(Math.floor(start / listing.size), Math.floor((start + count - 1) / listing.size) + 1);

/** How many records the listing has, when known: read to its end, or its end found. */
export const listingTotal = (listing: Listing): number | undefined => (listing.complete ? listing.records.length : listing.end?.total);

/** What a check that needs the whole listing says of one longer than --max-pages: it does not apply here. */
export const tooLong = (listing: Listing, what = 'this needs the whole listing'): Skip =>
  notApplicable(
    `${what}, and the listing is longer than --max-pages ${listing.maxPages}: ${listing.records.length.toLocaleString('en-US')} records read${listing.end ? ` of ${listing.end.total.toLocaleString('en-US')}` : ''}`,
  );

/**
 * No evidence unless the listing was read with at least `min` records and, when `extent`, its number of
 * records is known (read to its end, or, past --max-pages, its end found).
 */
export function needListing(listing: Listing, min: number, extent = false): Skip | undefined {
  if (listing.problem && listing.records.length < min) return noEvidence(`the listing could not be read: ${listing.problem}`);
  if (extent && listingTotal(listing) === undefined) {
    return noEvidence(
      listing.problem
        ? `the listing could not be read to its end: ${listing.problem}`
        : `the listing is longer than --max-pages ${listing.maxPages} and its end could not be found: ${listing.endProblem ?? ''}`,
    );
  }
  if (listing.records.length < min)
    return noEvidence(`needs at least ${min} record${min === 1 ? '' : 's'} in the listing, the target has ${listing.records.length}`);
  return undefined;
}
