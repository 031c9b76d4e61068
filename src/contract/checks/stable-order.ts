import { identities, needRecords, recordsOf } from '../model/answers.ts';
import { needListing } from '../model/listing.ts';
import { pageQuery, firstPage } from '../model/listing-query.ts';
import { recheckOf } from '../moment/at-once.ts';
import type { ScenarioCheck } from '../model/check.ts';

/** The same request twice gives the same records in the same order. */
export const stableOrder: ScenarioCheck = {
  name: 'stable_order',
  kind: 'scenario',
  description: 'the same request twice gives the same records in the same order',
  evidence: 'two 200 arrays of at least 2 records for the same request',
  async run(context) {
    const missing = needListing(await context.listing(), 2);
    if (missing) return missing;
    const query = pageQuery(context, firstPage(context.parameters), 10);
    const first = await context.send(query);
    const second = await context.send(query);
    const unusable = needRecords([first, second], 'the same request sent twice');
    if (unusable) return unusable;
    const [x, y] = [identities(recordsOf(first)!), identities(recordsOf(second)!)];
    if (x.join() === y.join()) return [];
    return [
      {
        severity: 'error',
        message: 'the same request gave different records or order',
        expected: x.join(', '),
        actual: y.join(', '),
        exchange: second,
        exchanges: [first, second],
        recheck: recheckOf(context, [query, query], ([a, b]) => identities(a!).join() !== identities(b!).join()),
      },
    ];
  },
};
