import { withListing, type ScenarioCheck } from '../model/check.ts';
import { needRecords, preview } from '../model/answers.ts';
import { recordsOf } from '../records.ts';
import { noMatchTerm } from '../material/search-term.ts';

/**
 * A term no record can contain gives no records. The interface states the search parameter, so a server
 * that ignores it altogether breaks the contract: an error.
 */
export const searchNoMatch: ScenarioCheck = {
  name: 'search_no_match',
  kind: 'scenario',
  judgesEachAnswer: true,
  description: 'a term no record can contain (high-entropy, seeded) gives no records: search is not ignored',
  evidence: 'a listing with at least 1 record, and a 200 array for the search',
  run: withListing(1, async (context) => {
    const term = noMatchTerm(context.seed);
    const exchange = await context.send({ [context.parameters.search.name]: term });
    const unusable = needRecords([exchange], `searching ${JSON.stringify(term)}`);
    if (unusable) return unusable;
    const records = recordsOf(exchange)!;
    if (records.length === 0) return [];
    return [
      {
        severity: 'error',
        message: `searching ${JSON.stringify(term)}, which no record can contain, gave ${records.length} records: the search parameter looks ignored`,
        expected: '[]',
        actual: preview(records[0], 80),
        exchange,
      },
    ];
  }),
};
