// A search behind its data: an index refreshed apart from the records (as Elasticsearch and most search services
// are) finds a record that arrived a moment ago only after its next refresh. On a listing that moves on, a
// search that misses what it should find is looked at again, within the listing's budget, before it is graded.
import { identities, recordsOf } from '../model/answers.ts';
import type { OperationContext } from '../model/context.ts';
import type { Listing } from '../model/listing.ts';
import { firstPage, pageQuery } from '../model/listing-query.ts';

/** Whether the listing moved on since it was read: its first page now holds other records (one request). */
async function listingMoved(context: OperationContext, listing: Listing): Promise<boolean> {
  const now = recordsOf(await context.send(pageQuery(context, firstPage(context.parameters), listing.size)));
  return now !== undefined && identities(now).join() !== identities(listing.records.slice(0, listing.size)).join();
}

/**
 * When the listing moved on since it was read (or a search of it was seen behind before), waits and asks `found` again, the waits doubling within the
 * listing's budget (3 s): whether the search caught up. On a listing that stands still, false at once: a search
 * that misses a record there is not behind anything.
 *
 * @example
 * if (await searchCaughtUp(context, listing, async () => holds(await context.send(query), record))) return [];
 */
export async function searchCaughtUp(context: OperationContext, listing: Listing, found: () => Promise<boolean>): Promise<boolean> {
  // A search seen behind its data once in this run is behind it still: a listing read a moment ago may not show it.
  if (context.catchUp.lagSeen() === undefined && !(await listingMoved(context, listing))) return false;
  return (await context.catchUp.lookAgain(found)) !== undefined;
}
