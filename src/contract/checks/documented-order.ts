import { comparable, compareRecords, describeOrder } from '../../spec/record-order.ts';
import { identity } from '../model/answers.ts';
import { needListing, pagesHolding } from '../model/listing.ts';
import { noEvidence, notApplicable } from '../model/skip.ts';
import type { ScenarioCheck } from '../model/check.ts';

/** The listing comes in the order its `x-order` states (assumed in our spec: a warning). */
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
    for (let i = 1; i < records.length; i += 1) {
      const [a, b] = [records[i - 1]!, records[i]!];
      if (!comparable(order, a, b)) continue;
      compared += 1;
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
    return compared > 0 ? [] : noEvidence(`no two neighbouring records both carry ${order[0]!.field}`);
  },
};
