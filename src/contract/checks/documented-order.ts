import { comparable, compareRecords, describeOrder } from '../../spec/record-order.ts';
import { identity } from '../records.ts';
import { needListing, pagesHolding } from '../model/listing.ts';
import { noEvidence, notApplicable, partly } from '../model/skip.ts';
import type { ScenarioCheck } from '../model/check.ts';

/**
 * The listing comes in the order its `x-order` states (assumed in our spec: a warning). A key past the first is
 * seen only where neighbours tie on the keys before it; where none do, it is reported as not observable.
 */
export const documentedOrder: ScenarioCheck = {
  name: 'documented_order',
  kind: 'scenario',
  description: "records come in the listing's x-order (created_at descending, then id ascending) (assumed)",
  evidence: 'the listing with at least 2 records that carry its first sort key',
  async run(context) {
    const { order } = context.operation;
    if (order.length === 0) return notApplicable(`${context.operation.operationId} states no order (x-order)`);
    const listing = await context.listing();
    const missing = needListing(listing, 2);
    if (missing) return missing;
    const { records } = listing;
    const shown = (r: Record<string, unknown>) => order.map(({ field }) => `${field} ${String(r[field])}`).join(', ');
    let compared = 0;
    // For each key past the first, whether two neighbours tied on every key before it: else it went unseen.
    const tied = order.map(() => false);
    for (let i = 1; i < records.length; i += 1) {
      const [a, b] = [records[i - 1]!, records[i]!];
      if (!comparable(order, a, b)) continue;
      compared += 1;
      for (let k = 1; k < order.length && compareRecords(order.slice(0, k), a, b) === 0; k += 1) tied[k] = true;
      if (compareRecords(order, a, b) > 0) {
        return [
          {
            severity: 'warning',
            message: `records ${i - 1} and ${i} of the listing are out of order (${describeOrder(order)})`,
            expected: `${identity(b)} (${shown(b)}) after ${identity(a)}`,
            actual: `${identity(a)} (${shown(a)}) before ${identity(b)} (${shown(b)})`,
            // The page (or the two pages) that hold them.
            exchange: pagesHolding(listing, i, 1)[0]!,
            exchanges: pagesHolding(listing, i - 1, 2),
          },
        ];
      }
    }
    if (compared === 0) return noEvidence(`no two neighbouring records both carry ${order[0]!.field}`);
    const unseen = order.flatMap(({ field, direction }, k) =>
      k > 0 && !tied[k]
        ? [
            `the tiebreak by ${field} ${direction === 'asc' ? 'ascending' : 'descending'}: no two records read share ${order
              .slice(0, k)
              .map((o) => o.field)
              .join(' and ')}`,
          ]
        : [],
    );
    return partly([], unseen);
  },
};
