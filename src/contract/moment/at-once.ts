// Requests sent together, so that their answers show the data at one moment: probes, rechecks, a count.
import type { OperationContext, Query } from '../model/context.ts';
import type { Listing } from '../model/listing.ts';
import { recordsOf } from '../records.ts';
import type { Exchange } from '../types.ts';
import { firstPage, pageQuery } from '../model/listing-query.ts';

/**
 * `send` for each item, the answers in the items' order: all at once when the run may have requests in flight
 * (each request is made, so placed, in the items' order before any answer is awaited), else one after another.
 * A check judging a fixed list of probes does not wait for each in turn behind the explorations' requests.
 *
 * @example
 * const answers = await sendEach(context, terms, (term) => context.send({ search: term }));
 */
export async function sendEach<T, R>(
  context: OperationContext,
  items: readonly T[],
  send: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (context.concurrency > 1) return Promise.all(items.map((item, i) => send(item, i)));
  const answers: R[] = [];
  for (const [i, item] of items.entries()) answers.push(await send(item, i));
  return answers;
}

/**
 * Sends `queries` as one group, let through whole by the client's scheduler, so that their answers show the
 * data at one moment however often it changes; the answers in the queries' order.
 *
 * @example
 * const [page, count] = await sendTogether(context, [{ query: pageQuery(context, 2, 10) }, { query: {} }]);
 */
export const sendTogether = (context: OperationContext, queries: readonly Query[]): Promise<Exchange[]> =>
  Promise.all(context.sendTogether(queries));

/** What a finding that compares answers is judged again with: true, it still holds; false, it no longer does; undefined, cannot tell. */
export type Recheck = () => Promise<boolean | undefined>;

/**
 * A finding's recheck on records: `queries` sent again together, and whether `disagree` still holds of their
 * records (undefined when one is not a 200 array).
 *
 * @example
 * recheck: recheckOf(context, [query, query], ([a, b]) => identities(a!).join() !== identities(b!).join()),
 */
export const recheckOf =
  (
    context: OperationContext,
    queries: readonly Readonly<Record<string, string>>[],
    disagree: (records: readonly Record<string, unknown>[][]) => boolean,
  ): Recheck =>
  async () => {
    const records = (
      await sendTogether(
        context,
        queries.map((query) => ({ query })),
      )
    ).map(recordsOf);
    return records.every((r) => r !== undefined) ? disagree(records as Record<string, unknown>[][]) : undefined;
  };

/**
 * A listing read to its end, counted again: the pages it had and two more (room for records that arrived
 * since), with `extra` queries, all sent as one group. When the listing now goes past them, all of it is sent
 * again over twice as many pages (up to --max-pages), so that every count comes from one moment with the
 * extra answers. Undefined when a page is not a 200 array or the listing goes past --max-pages.
 */
export async function countAgain(
  context: OperationContext,
  listing: Listing,
  extra: readonly Query[] = [],
): Promise<{ count: number; extra: Exchange[] } | undefined> {
  const { size } = listing;
  const first = firstPage(context.parameters);
  for (let wanted = Math.min(listing.maxPages, listing.pages + 2); ; wanted = Math.min(listing.maxPages, wanted * 2)) {
    const pages = Array.from({ length: wanted }, (_, k) => ({ query: pageQuery(context, first + k, size) }));
    const answers = await sendTogether(context, [...pages, ...extra]);
    let count = 0;
    for (const exchange of answers.slice(0, wanted)) {
      const records = recordsOf(exchange);
      if (!records) return undefined;
      count += records.length;
      if (records.length < size) return { count, extra: answers.slice(wanted) };
    }
    if (wanted === listing.maxPages) return undefined;
  }
}

/**
 * A finding's recheck on the listing's size: the listing counted again with `extra` queries, all at one moment,
 * and whether `disagree` still holds of the count and the extra answers.
 *
 * @example
 * recheck: recountAgain(context, listing, [{ query: pageQuery(context, 1, 1) }], (count, [page]) => header(page) !== String(count)),
 */
export const recountAgain =
  (
    context: OperationContext,
    listing: Listing,
    extra: readonly Query[],
    disagree: (count: number, extra: readonly Exchange[]) => boolean | undefined,
  ): Recheck =>
  async () => {
    const again = await countAgain(context, listing, extra);
    return again && disagree(again.count, again.extra);
  };
