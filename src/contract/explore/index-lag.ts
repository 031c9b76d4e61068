// A search index refreshed apart from the data: answers that leave out the newest records, as an index not yet
// refreshed with them would, are a lag when, and only when, the index is seen to take them in.
import type { OperationContext } from '../model/context.ts';
import type { Listing } from '../model/listing.ts';
import { identities, recordsOf } from '../model/answers.ts';
import { firstPage, largestPageSize, pageQuery } from '../model/listing-query.ts';
import { arrivedAtHead } from '../material/listing-model.ts';
import type { ExplorationState } from './exploration-state.ts';

/**
 * How many of the newest records a search's answer leaves out, as a search index not yet refreshed with them
 * would: the fewest that explain the answer exactly, among the records that arrived during the run (at the head
 * of the listing, none of them in its first read). Undefined when no such number explains it.
 */
export function indexBehind(
  state: ExplorationState,
  listing: Listing,
  term: string,
  start: number,
  size: number,
  ids: readonly string[],
): number | undefined {
  const { model } = state;
  if (!model.complete || term === '') return undefined;
  const head = arrivedAtHead(model, listing);
  for (let newest = 1; newest <= head; newest += 1)
    if (identities(model.matchesBefore(term, newest).slice(start, start + size)).join() === ids.join()) return newest;
  return undefined;
}

/**
 * When a search's X-Total-Count is the number of records the term finds in the listing as it was before its
 * newest records arrived (a search index not yet refreshed with them, among the records that arrived during the
 * run): how many it is behind by, and that count.
 */
export function behindBy(
  model: ExplorationState['model'],
  listing: Listing,
  term: string,
  total: string | undefined,
  count: number,
): { readonly newest: number; readonly count: number } | undefined {
  if (total === undefined || total === String(count) || !model.complete || term === '') return undefined;
  const head = arrivedAtHead(model, listing);
  for (let newest = 1; newest <= head; newest += 1) {
    const before = model.matchesBefore(term, newest).length;
    if (String(before) === total) return { newest, count: before };
  }
  return undefined;
}

/**
 * Whether a search for `term` now finds the `newest` newest records of the model that contain it (one page at
 * the largest size, where the newest are): an index behind them took them in since.
 *
 * @example
 * await context.catchUp.catchesUp(() => foundLater(context, state, term, 3));
 */
export async function foundLater(context: OperationContext, state: ExplorationState, term: string, newest: number): Promise<boolean> {
  const { model } = state;
  const head = new Set(model.ids.slice(0, newest));
  const wanted = identities(model.matches(term)).filter((id) => head.has(id));
  const page = pageQuery(context, firstPage(context.parameters), largestPageSize(context.parameters), {
    [context.parameters.search.name]: term,
  });
  const found = recordsOf(await context.send(page));
  const ids = new Set(found ? identities(found) : []);
  return found !== undefined && wanted.every((id) => ids.has(id));
}
