import { LRUCache } from 'lru-cache';
import { createReplayCache } from './replay-cache.ts';
import { largestPageSize } from '../model/listing-query.ts';
import { recordsOf } from '../records.ts';
import type { OperationContext } from '../model/context.ts';
import type { SendOptions } from '../client/http-client.ts';
import type { Exchange } from '../types.ts';

/**
 * Records of the target's own answer for a search, and the pages read for them (the first from result `from`, at the
 * largest size), or the exchange that did not give them.
 */
export type Reference =
  | { readonly records: readonly Record<string, unknown>[]; readonly exchanges: readonly Exchange[]; readonly from: number }
  | { readonly unusable: Exchange };

/** The target's whole answer for a search (`complete` false when it is longer than the pages read), or the exchange that failed. */
export type Whole =
  | {
      readonly records: readonly Record<string, unknown>[];
      readonly complete: boolean;
      readonly first?: Exchange;
      /** The pages read to know it: the page past --max-pages that told it ends, then its pages in order. */
      readonly exchanges: readonly Exchange[];
    }
  | { readonly unusable: Exchange };

/**
 * What the explorations keep to replay, per operation ({@link createReplayCache}): the first answers (reference
 * pages and generated requests, the covering set's among them), enough that a default run sends nothing twice,
 * then the latest; and the latest whole answers for a term. Few enough that memory does not grow with --examples.
 */
const KEPT = { first: 512, recent: 64, wholes: 32 } as const;

/**
 * The target's own result set for a search term, read at the largest page size through `send` (which keeps
 * what it sent): the reference a page of any other size must be a slice of. That is the stated rule (page p
 * of size s holds results (p-1)s .. ps-1), whatever the matching rule or order, which are assumptions judged
 * elsewhere.
 */
export function createReferencePages(context: OperationContext, send: (query: Record<string, string>) => Promise<Exchange>) {
  const { page, pageSize, search } = context.parameters;
  const max = largestPageSize(context.parameters);
  // Kept (and sent once) by `send`, the exploration's memo: a generated request may ask for the same page.
  const fetchPage = (term: string | undefined, n: number) =>
    send({ ...(term === undefined ? {} : { [search.name]: term }), [page.name]: String(n), [pageSize.name]: String(max) });
  const wholes = new LRUCache<string, Promise<Whole>>({ max: KEPT.wholes });
  // A slice of at most `max` records spans at most two reference pages; counted, not compared, since past
  // 2^53 (pages far past the end) n + 1 === n.
  const spansOf = (first: number, start: number, count: number) => Math.min(2, Math.floor((start + count - 1) / max) + 2 - first);
  const readWhole = async (term: string, maxPages: number): Promise<Whole> => {
    const beyond = await fetchPage(term, maxPages + 1);
    const tail = recordsOf(beyond);
    if (!tail) return { unusable: beyond };
    if (tail.length > 0) return { records: [], complete: false, exchanges: [beyond] };
    const read = await readPages(fetchPage, max, term, 1, maxPages);
    if ('unusable' in read) return read;
    const { records } = read;
    const exchanges = [beyond, ...read.exchanges];
    if (!read.ended) return { records, complete: false, exchanges };
    return { records, complete: true, first: await fetchPage(term, 1), exchanges };
  };
  return {
    max,
    /**
     * The target's whole answer for `term` when it fits in `maxPages` pages of the largest size (`complete`
     * false when it does not: one read of page maxPages + 1 tells, so a broad term costs one request).
     */
    whole(term: string, maxPages: number): Promise<Whole> {
      if (!wholes.has(term)) wholes.set(term, readWhole(term, maxPages));
      return wholes.get(term)!;
    },
    /** Sends the pages {@link slice} will read for the same arguments, all at once, without waiting for them. */
    prefetch(term: string | undefined, start: number, count: number): Promise<unknown> {
      const first = Math.floor(start / max) + 1;
      return Promise.all(Array.from({ length: spansOf(first, start, count) }, (_, k) => fetchPage(term, first + k)));
    },
    /** Results start .. start+count-1 of the target's answer for `term` (no search when undefined). */
    async slice(term: string | undefined, start: number, count: number): Promise<Reference> {
      const first = Math.floor(start / max) + 1;
      const read = await readPages(fetchPage, max, term, first, spansOf(first, start, count));
      if ('unusable' in read) return read;
      const from = (first - 1) * max;
      return { records: read.records.slice(start - from, start - from + count), exchanges: read.exchanges, from };
    },
  };
}

/**
 * Pages `first`.. of the target's answer for `term` at the largest size `max`, read in turn: `count` of them at most
 * (counted, as spansOf says why), `ended` when a short one ended the answer first; or the exchange that gave no records.
 */
async function readPages(
  fetchPage: (term: string | undefined, n: number) => Promise<Exchange>,
  max: number,
  term: string | undefined,
  first: number,
  count: number,
): Promise<
  { readonly records: Record<string, unknown>[]; readonly exchanges: Exchange[]; readonly ended: boolean } | { readonly unusable: Exchange }
> {
  const records: Record<string, unknown>[] = [];
  const exchanges: Exchange[] = [];
  for (let k = 0; k < count; k += 1) {
    const exchange = await fetchPage(term, first + k);
    exchanges.push(exchange);
    const batch = recordsOf(exchange);
    if (!batch) return { unusable: exchange };
    records.push(...batch);
    if (batch.length < max) return { records, exchanges, ended: true };
  }
  return { records, exchanges, ended: false };
}

/** Sends each distinct request once (see createQueryMemo). */
export interface QueryMemo {
  (query: Record<string, string>, options?: SendOptions): Promise<Exchange>;
  /** Keeps the answers `later` holds in place of its own for the same requests: they were sent since. */
  takeIn(later: QueryMemo): void;
  /** What it keeps, by request. */
  entries(): [string, Promise<Exchange>][];
}

/**
 * Sends each distinct request once per operation (of those kept): the exploration checks replay the same
 * generated requests.
 *
 * @example
 * const send = createQueryMemo(context);
 * await send({ page: '2' }); // sent; asked again, the same answer
 */
export function createQueryMemo(context: OperationContext): QueryMemo {
  const sent = createReplayCache<Promise<Exchange>>(KEPT.first, KEPT.recent);
  const send = (query: Record<string, string>, options?: SendOptions): Promise<Exchange> => {
    const key = JSON.stringify([Object.entries(query), options ?? null]);
    return sent.get(key) ?? sent.set(key, context.send(query, options));
  };
  return Object.assign(send, {
    takeIn(later: QueryMemo) {
      for (const [key, answer] of later.entries()) sent.set(key, answer);
    },
    entries: () => sent.entries(),
  });
}
