import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describeAnswer } from './answers.ts';
import { identities, identity, recordsOf } from '../records.ts';
import type { Listing, ListingEnd, ReadPage } from './listing.ts';
import type { Exchange } from '../types.ts';
import type { OperationContext } from './context.ts';
import { countOf, LISTING_READ, pageQuery } from './listing-query.ts';
import { pageAround } from './page-around.ts';

/** Reads of the listing again, at most, when a read repeated a record or the listing moved under it. */
const READS_AGAIN = 3;

/**
 * Sends page `page` of size `size` of the listing (no search); `together`, when given, sends several pages as one
 * group let through whole (a listing read again reads its known pages at one moment).
 */
export type PageReader = ((page: number, size: number) => Promise<Exchange>) & {
  readonly together?: (pages: readonly number[], size: number) => Promise<Exchange>[];
  /** The count a page's answer sent (X-Total-Count), when the target sends one. */
  readonly count?: (exchange: Exchange) => number | undefined;
};

/**
 * The pages of `context`'s listing, sent before queued requests (most checks wait on the listing), several at
 * once as one group.
 *
 * @example
 * const listing = await readListing(listingPages(context), 1, 100, 50, seed);
 */
export const listingPages = (context: OperationContext): PageReader =>
  Object.assign((page: number, size: number) => context.send(pageQuery(context, page, size), LISTING_READ), {
    together: (pages: readonly number[], size: number) =>
      context.sendTogether(pages.map((page) => ({ query: pageQuery(context, page, size), options: LISTING_READ }))),
    count: (exchange: Exchange) => countOf(context, exchange),
  });

/** Doublings of the page number before the kit gives up looking for the end (page 50 * 2^40 is beyond any listing). */
const MAX_DOUBLINGS = 40;
/** Adjacent pairs of pages sampled from the seed between the prefix and the end, besides the last two pages. */
const SAMPLED_PAIRS = 3;

/**
 * Reads a listing page by page at `size` (the largest) from page `first`, up to `maxPages` pages. When the
 * listing is longer, its end is found in O(log n) more requests (the page number doubled until a page is
 * empty, then bisected), and a few adjacent pairs of pages between are read, from the seed, so that what
 * lies beyond the prefix is judged too.
 *
 * `ahead` pages are sent at once at the start (a listing read again, whose length is known).
 *
 * @example
 * const listing = await readListing((page, size) => context.send(pageQuery(context, page, size)), 1, 100, 50, seed);
 * listing.complete ? listing.records.length : listing.end?.total;
 */
export async function readListing(
  read: PageReader,
  first: number,
  size: number,
  maxPages: number,
  seed: number,
  ahead = 0,
): Promise<Listing> {
  // A record on two pages is what an overlap bug shows, and also what a record arriving at the head while
  // the pages are read shows once: the prefix is read again, and only a repeat seen every time stands.
  // Records that arrived while it was read (told apart, and dropped as repeats) leave it torn: a window whose
  // oldest records leave as new ones arrive lost its last one. It is read again, its pages sent at once.
  let read1 = await readListing1(aheadOf(read, first, size, ahead), first, size, maxPages, seed);
  for (let n = 0; n < READS_AGAIN && (read1.listing.repeated || read1.moved); n += 1) {
    const again = read1.moved ? Math.max(ahead, Math.min(maxPages, read1.listing.pages + 1)) : ahead;
    read1 = await readListing1(aheadOf(read, first, size, again), first, size, maxPages, seed);
  }
  return read1.listing;
}

/** `read`, with the first `ahead` pages of size `size` sent at once: a listing read again reads them at one moment. */
function aheadOf(read: PageReader, first: number, size: number, ahead: number): PageReader {
  const pages = Array.from({ length: ahead }, (_, k) => first + k);
  const answers = read.together ? read.together(pages, size) : pages.map((page) => read(page, size));
  const sent = new Map(pages.map((page, k) => [page, answers[k]!] as const));
  const reader = (page: number, s: number) => {
    const early = s === size ? sent.get(page) : undefined;
    sent.delete(page);
    return early ?? read(page, s);
  };
  return read.count ? Object.assign(reader, { count: read.count }) : reader;
}

/** One read of the listing, and whether records arrived at its head while it was read (`moved`). */
async function readListing1(
  read: PageReader,
  first: number,
  size: number,
  maxPages: number,
  seed: number,
): Promise<{ listing: Listing; moved: boolean }> {
  let moved = false;
  const done = (listing: Listing) => ({ listing, moved });
  const records: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const pageExchanges: Exchange[] = [];
  const base = { size, maxPages, pageExchanges };
  let exchange: Exchange | undefined;
  for (let n = 0; n < maxPages; n += 1) {
    exchange = await read(first + n, size);
    pageExchanges.push(exchange);
    const batch = recordsOf(exchange);
    if (!batch) {
      const why = describeAnswer(exchange) + (exchange.response?.status === 200 ? ', not a JSON array' : '');
      return done({ ...base, records, complete: false, problem: `page ${first + n} of size ${size} got ${why}`, pages: n + 1 });
    }
    // Records arriving at the head while the pages are read push the ones already read onto the next page:
    // when the first page read again shows at least as many new records at its head, those repeats are that.
    // Whether the page was full, before repeats are dropped from it: a full page is not the last.
    const full = batch.length >= size;
    const repeats = batch.findIndex((record) => !seen.has(identity(record)));
    const leading = repeats < 0 ? batch.length : repeats;
    // Asked twice: behind a balancer, one read of the head may come from a replica behind the one that answered the page.
    const arrived = async () => (await arrivedAtHead(read, first, size, records.slice(0, size))) >= leading;
    if (leading > 0 && n > 0 && (grewBy(read, pageExchanges.at(-2)!, exchange) >= leading || (await arrived()) || (await arrived()))) {
      batch.splice(0, leading);
      moved = true;
    }
    const repeated = batch.find((record) => seen.has(identity(record)));
    if (repeated) {
      const problem = `page ${first + n} of size ${size} repeats ${identity(repeated)}, already on an earlier page`;
      return done({ ...base, records, complete: false, problem, repeated: { id: identity(repeated), page: first + n }, pages: n + 1 });
    }
    for (const record of batch) seen.add(identity(record));
    records.push(...batch);
    if (!full) {
      // Read from versions apart (records arrived, counts that differ: replicas), its last page may have come from
      // one shorter than the page before it: the records it left out are found past the end.
      if (moved || new Set(pageExchanges.map((e) => read.count?.(e))).size > 1) await mendTail(read, first, size, records, seen);
      return done({ ...base, records, complete: true, pages: n + 1 });
    }
  }
  const last = first + maxPages - 1;
  const end = await findEnd(read, size, { page: last, records: records.slice(-size), exchange: exchange! }, seed);
  return done({
    ...base,
    records,
    complete: false,
    pages: maxPages,
    ...('problem' in end ? { endProblem: end.problem } : { end }),
  });
}

async function findEnd(read: PageReader, size: number, prefixLast: ReadPage, seed: number): Promise<ListingEnd | { problem: string }> {
  const pages = new Map<number, ReadPage>([[prefixLast.page, prefixLast]]);
  const get = async (page: number): Promise<ReadPage | { problem: string }> => {
    const known = pages.get(page);
    if (known) return known;
    const exchange = await read(page, size);
    const batch = recordsOf(exchange);
    if (!batch) return { problem: `page ${page} of size ${size}, read to find where the listing ends, got ${describeAnswer(exchange)}` };
    const got = { page, records: batch, exchange };
    pages.set(page, got);
    return got;
  };
  // Invariant: page lo has records; page hi (once found) has none.
  let lo = prefixLast.page;
  let hi: number | undefined;
  for (let doublings = 0; hi === undefined; doublings += 1) {
    if (doublings === MAX_DOUBLINGS) return { problem: `page ${lo} of size ${size} still has records: no end found` };
    const probe = await get(lo * 2);
    if ('problem' in probe) return probe;
    if (probe.records.length > 0) lo = probe.page;
    else hi = probe.page;
  }
  while (hi - lo > 1) {
    const probe = await get(Math.floor((lo + hi) / 2));
    if ('problem' in probe) return probe;
    if (probe.records.length > 0) lo = probe.page;
    else hi = probe.page;
  }
  // The last two pages, and pairs between the prefix and the end from the seed, one in each stretch.
  const pairs = new Set<number>();
  if (lo - 1 > prefixLast.page) pairs.add(lo - 1);
  const random = xoroshiro128plus(seed >>> 0);
  const span = lo - 1 - (prefixLast.page + 1);
  for (let k = 0; k < SAMPLED_PAIRS && span > 0; k += 1) {
    const from = prefixLast.page + 1 + Math.floor((span * k) / SAMPLED_PAIRS);
    const to = prefixLast.page + 1 + Math.floor((span * (k + 1)) / SAMPLED_PAIRS) - 1;
    if (to >= from) pairs.add(uniformInt(random, from, to));
  }
  for (const page of [...pairs].sort((a, b) => a - b)) {
    for (const p of [page, page + 1]) {
      const got = await get(p);
      if ('problem' in got) return got;
    }
  }
  // A last page whose records are all on the page before answers a page past the end with records again.
  const found = pages.get(lo)!;
  const before = pages.get(lo - 1);
  const seen = new Set(before?.records.map(identity));
  const repeated = before && found.records.every((record) => seen.has(identity(record))) ? found : undefined;
  const last = repeated ? before! : found;
  return {
    total: (last.page - 1) * size + last.records.length,
    last,
    pages: [...pages.values()].filter((p) => p.records.length > 0 && p !== repeated).sort((a, b) => a.page - b.page),
    ...(repeated ? { repeated } : {}),
  };
}

/** Rounds of reads at the end of a listing read from versions apart. */
const TAIL_ROUNDS = 4;

/**
 * The records a read from versions apart left out at its tail: a page holding its oldest record read in its middle
 * (see pageAround) and the page after (records arriving since push it on), each answer alone (pages of one answer
 * come from one version, two answers may not), appending what follows that record unread, in the answer's order,
 * until none does. A target answering a page past the end with the last records again shows ones already read.
 */
async function mendTail(
  read: PageReader,
  first: number,
  largest: number,
  records: Record<string, unknown>[],
  seen: Set<string>,
): Promise<void> {
  for (let round = 0; round < TAIL_ROUNDS && records.length > 0; round += 1) {
    const oldest = identity(records.at(-1)!);
    // A page ending on it shows nothing after it; mid-page, a replica a few records apart still shows it.
    const { index, size } = pageAround(records.length - 1, largest);
    const answers = await Promise.all([index, index + 1].map((p) => read(first + p, size)));
    const after = answers.map((answer) => {
      const batch = recordsOf(answer) ?? [];
      const at = batch.findIndex((record) => identity(record) === oldest);
      return at < 0 ? [] : batch.slice(at + 1).filter((record) => !seen.has(identity(record)));
    });
    const found = after.reduce((a, b) => (b.length > a.length ? b : a));
    if (found.length === 0) return;
    for (const record of found) seen.add(identity(record));
    records.push(...found);
  }
}

/**
 * How many records the listing grew by between two pages' answers, by the counts they sent (0 without counts): a
 * page answered by a replica ahead of the one that answered the page before, or after records arrived, repeats as
 * many of its records at its head.
 */
function grewBy(read: PageReader, before: Exchange, after: Exchange): number {
  const [was, now] = [read.count?.(before), read.count?.(after)];
  return was === undefined || now === undefined ? 0 : now - was;
}

/** How many records the first page, read again, holds before the first of `before` (records arrived at the head). */
async function arrivedAtHead(read: PageReader, first: number, size: number, before: readonly Record<string, unknown>[]): Promise<number> {
  const now = recordsOf(await read(first, size));
  if (!now || before.length === 0) return 0;
  const ids = identities(now);
  const old = identities(before);
  if (!headShifted(old, ids)) return 0;
  const at = ids.indexOf(old.find((id) => ids.includes(id)) ?? '');
  return Math.max(at, 0);
}

/**
 * Whether two answers to one request are one listing at two moments: the records both hold keep their order,
 * and the others lie at the head (arrived) or the tail (pushed past the page, or arrived in the other).
 */
export function headShifted(a: readonly string[], b: readonly string[]): boolean {
  const inB = new Set(b);
  const inA = new Set(a);
  const common = a.filter((id) => inB.has(id));
  if (common.join() !== b.filter((id) => inA.has(id)).join()) return false;
  const outside = (list: readonly string[], other: Set<string>) => {
    const first = list.findIndex((id) => other.has(id));
    const last = list.length - 1 - [...list].reverse().findIndex((id) => other.has(id));
    return first < 0 || list.slice(first, last + 1).every((id) => other.has(id));
  };
  return outside(a, inB) && outside(b, inA);
}
