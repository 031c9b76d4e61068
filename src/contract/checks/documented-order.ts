import { identity, needListing, noEvidence, type ScenarioCheck } from '../check.ts';

/** The listing is ordered by created_at descending, then id ascending (assumed: a warning). */
export const documentedOrder: ScenarioCheck = {
  name: 'documented_order',
  kind: 'scenario',
  description: 'records come newest first (created_at descending, then id ascending) (assumed)',
  evidence: 'the listing with at least 2 records that carry a created_at date',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 2);
    if (missing) return missing;
    const { records } = listing;
    let compared = 0;
    for (let i = 1; i < records.length; i += 1) {
      const [a, b] = [records[i - 1]!, records[i]!];
      const [ta, tb] = [Date.parse(String(a.created_at)), Date.parse(String(b.created_at))];
      if (Number.isNaN(ta) || Number.isNaN(tb)) continue;
      compared += 1;
      const ordered = ta > tb || (ta === tb && String(a.id) <= String(b.id));
      if (!ordered) {
        return [
          {
            severity: 'warning',
            message: `records ${i - 1} and ${i} of the listing are out of order`,
            expected: `${identity(b)} (${String(b.created_at)}) after ${identity(a)}`,
            actual: `${identity(a)} created ${String(a.created_at)} before ${identity(b)} created ${String(b.created_at)}`,
          },
        ];
      }
    }
    return compared > 0 ? [] : noEvidence('no two neighbouring records both carry a created_at date');
  },
};
