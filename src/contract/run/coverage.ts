// What the run covered of each listing: records read, the end found, pairs of parameter classes judged.
import { listingTotal, type Listing } from '../model/listing.ts';
import type { ListingCoverage } from '../types.ts';
import type { CatchUp } from '../model/catch-up.ts';
import type { OperationRun } from './operation-runs.ts';

/**
 * The coverage of every listing some check read.
 *
 * @example
 * const coverage = await coverageOfRuns(runs);
 */
export async function coverageOfRuns(runs: readonly OperationRun[]): Promise<ListingCoverage[]> {
  const read = await Promise.all(runs.map(({ context }) => context.listingRead()));
  return runs.flatMap(({ operation, context }, i) =>
    read[i] ? [coverageOf(operation.operationId, read[i], context.pairs.summary(), context.catchUp)] : [],
  );
}

function coverageOf(operationId: string, listing: Listing, pairs: ListingCoverage['pairs'], catchUp: CatchUp): ListingCoverage {
  const total = listingTotal(listing);
  const [searchLagMs, searchBehindRecords] = [catchUp.lagSeen(), catchUp.behindSeen()];
  return {
    operationId,
    read: listing.records.length,
    ...(total !== undefined ? { total } : {}),
    sampledPages: listing.end ? listing.end.pages.length - 1 : 0,
    complete: listing.complete,
    ...(pairs ? { pairs } : {}),
    ...(searchLagMs !== undefined ? { searchLagMs } : {}),
    ...(searchBehindRecords !== undefined ? { searchBehindRecords } : {}),
  };
}
