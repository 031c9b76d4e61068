// What the run covered of each listing: records read, the end found, pairs of parameter classes judged.
import { listingTotal, type Listing } from '../model/listing.ts';
import type { ListingCoverage } from '../types.ts';
import type { ListingVersions } from '../versions/listing-versions.ts';
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
    read[i] ? [coverageOf(operation.operationId, read[i], context.pairs.summary(), context.versions)] : [],
  );
}

function coverageOf(operationId: string, listing: Listing, pairs: ListingCoverage['pairs'], versions: ListingVersions): ListingCoverage {
  const total = listingTotal(listing);
  return {
    operationId,
    read: listing.records.length,
    ...(total !== undefined ? { total } : {}),
    sampledPages: listing.end ? listing.end.pages.length - 1 : 0,
    complete: listing.complete,
    ...(pairs ? { pairs } : {}),
    consistency: versions.history.figures(),
  };
}
