import { BETWEEN_REQUESTS, finishNow, inBackground, type Steps, stepUntil } from './between-requests.ts';
import type { SearchIndex, SearchIndexBuilder } from './search-index.ts';

/** How a store's records go into its index (see indexBuild). */
export interface IndexSource {
  /** How many records. */
  readonly count: number;
  /** Lays the index out (from a sample of the records); called once. */
  readonly layOut: () => SearchIndexBuilder;
  /** Adds record i to the index (and whatever the store makes of it on the way). */
  readonly add: (builder: SearchIndexBuilder, i: number) => void;
  /** Trigram postings: faster searches, for small collections. */
  readonly trigrams: boolean;
  /** Work before the layout, in steps: true once done (a generated collection makes its sample). */
  readonly prepare?: (until: number) => boolean;
  /** Builds between requests even where BETWEEN_REQUESTS says not (a large collection must). */
  readonly always?: boolean;
  /** Its owner schedules the steps (see IndexBuild.step): the build queues none itself. */
  readonly stepped?: boolean;
}

/** A search index under construction (see indexBuild). */
export interface IndexBuild {
  /** The index, once built. */
  readonly index: () => SearchIndex | undefined;
  /** The index, what is left of it built now. */
  readonly complete: () => SearchIndex;
  /** The share built: below 1 until the index is finished, its last steps included. */
  readonly share: () => number;
  /** Builds on until `until` (a performance.now() instant); true once the index is built. */
  readonly step: (until: number) => boolean;
}

/**
 * The one search-index build of every store: record by record in slices between requests (see inBackground)
 * from the start (the clock is read after every record), then finished in steps on the same clock, one
 * store's build after another; a search may complete it at once, continuing the same build. On a
 * Worker, which does no work between requests, nothing is built until it is completed.
 */
export function indexBuild(source: IndexSource): IndexBuild {
  const { count, add, trigrams, prepare } = source;
  let builder: SearchIndexBuilder | undefined;
  let finishing: Steps<SearchIndex> | undefined;
  let index: SearchIndex | undefined;
  let built = 0;
  const layOut = () => (builder ??= source.layOut());
  const finishingOf = (laidOut: SearchIndexBuilder) => (finishing ??= laidOut.finishing({ trigrams }));
  const complete = (): SearchIndex => {
    if (index) return index;
    const laidOut = layOut();
    while (built < count) add(laidOut, built++);
    index = finishNow(finishingOf(laidOut));
    return index;
  };
  const step = (until: number): boolean => {
    if (index) return true;
    if (!builder && prepare && !prepare(until)) return false;
    const laidOut = layOut();
    while (built < count && performance.now() < until) add(laidOut, built++);
    if (built < count) return false;
    index = stepUntil(finishingOf(laidOut), until);
    return index !== undefined;
  };
  if (count > 0 && !source.stepped && (source.always || BETWEEN_REQUESTS)) inBackground(step);
  return { index: () => index, complete, share: () => (index ? 1 : Math.min(built / count, 0.99)), step };
}
