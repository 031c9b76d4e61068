// Requests sent together, so that their answers show the data at one moment: probes, rechecks, a count.
import type { OperationContext } from '../model/context.ts';
import type { Listing } from '../model/listing.ts';
import { recordsOf } from '../model/answers.ts';
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
 * Sends `queries` again, all at once (so that they see the data at one moment, however often it changes), and
 * resolves whether `disagree` still holds of their records (undefined when one is not a 200 array).
 */
export function recheckOf(
  context: OperationContext,
  queries: readonly Readonly<Record<string, string>>[],
  disagree: (records: readonly Record<string, unknown>[][]) => boolean,
): () => Promise<boolean | undefined> {
  return async () => {
    const answers = (await Promise.all(queries.map((query) => context.send(query)))).map(recordsOf);
    return answers.every((records) => records !== undefined) ? disagree(answers as Record<string, unknown>[][]) : undefined;
  };
}

/**
 * A listing read to its end, counted again: the pages it had and two more (room for records that arrived
 * since), with `extra` queries, all sent at once. When the listing now goes past them, all of it is sent again
 * at once over twice as many pages (up to --max-pages), so that every count comes from one moment. Undefined
 * when a page is not a 200 array or the listing goes past --max-pages.
 */
export async function countAgain(
  context: OperationContext,
  listing: Listing,
  extra: readonly Readonly<Record<string, string>>[] = [],
): Promise<{ count: number; extra: (Record<string, unknown>[] | undefined)[] } | undefined> {
  const { size } = listing;
  const first = firstPage(context.parameters);
  for (let wanted = Math.min(listing.maxPages, listing.pages + 2); ; wanted = Math.min(listing.maxPages, wanted * 2)) {
    const answers = await Promise.all([
      ...Array.from({ length: wanted }, (_, k) => context.send(pageQuery(context, first + k, size))),
      ...extra.map((query) => context.send(query)),
    ]);
    let count = 0;
    for (const exchange of answers.slice(0, wanted)) {
      const records = recordsOf(exchange);
      if (!records) return undefined;
      count += records.length;
      if (records.length < size) return { count, extra: answers.slice(wanted).map(recordsOf) };
    }
    if (wanted === listing.maxPages) return undefined;
  }
}
