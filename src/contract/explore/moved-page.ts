// Past the records read, an answer judged against the target's own answers read at another moment: the same
// records, moved by as many places as the listing's head may have moved between the two.
import { identities, recordsOf } from '../records.ts';
import type { OperationContext } from '../model/context.ts';
import { headQuery } from '../model/head-read.ts';
import type { Exchange } from '../types.ts';
import { spanning } from '../versions/history.ts';
import { movedBetween } from '../versions/rule.ts';

/** The span from the first sent to the last answered of `exchanges`, when each has one. */
const spanOf = (exchanges: readonly Exchange[]) =>
  exchanges.every((e) => e.span !== undefined) ? spanning(exchanges.map((e) => e.span!)) : undefined;

/**
 * By how many places the answer to `term` may have moved from `exchange` to `others`: for a plain page, the records
 * the head may have gained or lost between them; for a search, between none and that many (an arrival may not match).
 * The head is read first: what arrived up to now bounds what may have arrived between them.
 */
async function movedRange(context: OperationContext, exchange: Exchange, others: readonly Exchange[], term: string) {
  const span = spanOf(others);
  if (!exchange.span || !span) return undefined;
  await context.send(headQuery(context));
  const { versions } = context;
  const kind = term === '' ? 'page' : 'search';
  const moved = movedBetween(versions.history, { span: exchange.span, kind }, { span, kind }, versions.maxStalenessMs);
  if (!moved) return undefined;
  return term === '' ? moved : { low: Math.min(0, moved.low), high: Math.max(0, moved.high) };
}

/**
 * Whether `exchange`, the page of `size` records from `start` of the answer to `term`, is what `pages` (the target's
 * own pages of that answer, read in order from `base` at `max` records each) hold there moved by a number of places
 * the listing may have moved between them: a record arriving at the head moves every record below it down one place.
 *
 * @example
 * await movedPage(context, exchange, { term: '', start: 250_000, size: 5 }, { exchanges, base: 249_900, max: 100 });
 */
export async function movedPage(
  context: OperationContext,
  exchange: Exchange,
  page: { readonly term: string; readonly start: number; readonly size: number },
  pages: { readonly exchanges: readonly Exchange[]; readonly base: number; readonly max: number },
): Promise<boolean> {
  const shown = recordsOf(exchange);
  const moved = shown && (await movedRange(context, exchange, pages.exchanges, page.term));
  if (!moved) return false;
  const read = pages.exchanges.flatMap((e) => identities(recordsOf(e) ?? []));
  const last = recordsOf(pages.exchanges.at(-1)!);
  // Pages that ended short hold the answer's end: a shorter page there is the answer ending.
  const ended = last !== undefined && last.length < pages.max;
  const ids = identities(shown).join();
  for (let k = moved.low; k <= moved.high; k += 1) {
    const at = page.start + k - pages.base;
    if (at < 0 || at > read.length) continue;
    const want = read.slice(at, at + page.size);
    if ((want.length === page.size || ended) && want.join() === ids) return true;
  }
  return false;
}

/**
 * Whether the count `count` that `exchange` sent for `term` is the count `others` gave (`counted`) give or take as
 * many records as the listing may have gained or lost between them.
 *
 * @example
 * await movedCount(context, exchange, 316, { term: 'resolved', counted: 317, exchanges: rests });
 */
export async function movedCount(
  context: OperationContext,
  exchange: Exchange,
  count: number,
  others: { readonly term: string; readonly counted: number; readonly exchanges: readonly Exchange[] },
): Promise<boolean> {
  const moved = await movedRange(context, exchange, others.exchanges, others.term);
  if (!moved) return false;
  const low = Math.min(0, moved.low);
  const high = Math.max(0, moved.high);
  const gained = others.counted - count;
  return gained >= low && gained <= high;
}
