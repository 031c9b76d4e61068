import type { Finding, ScenarioCheck } from '../check.ts';
import { describeAnswers, needListing, noEvidence, recordsOf } from '../check.ts';
import type { Exchange } from '../types.ts';
import { searchAnswerFinding } from './lenient-match.ts';

/** Terms that break naive SQL, regex or URL handling, and a long one. */
export const SPECIAL_TERMS = ['(', '[', '%', "'", '"', '\\', '.*', '%_', 'température ❄', '😀', 'x'.repeat(1000)];

/**
 * Special characters and long terms never give a 5xx (not_a_server_error reports those), and whatever
 * comes back contains the term: an error when no result contains it even read leniently (a `%` read as a SQL
 * wildcard), a warning when some contain it only leniently or not at all (matching is assumed).
 */
export const searchSpecialTerms: ScenarioCheck = {
  name: 'search_special_terms',
  kind: 'scenario',
  judgesEachAnswer: true,
  description: 'special characters and a 1,000-character term are searched literally, never a 5xx',
  evidence: 'a listing with at least 1 record, and a 200 array for at least one special term',
  async run(context) {
    const missing = needListing(await context.listing(), 1);
    if (missing) return missing;
    const findings: Finding[] = [];
    const unusable: Exchange[] = [];
    for (const term of SPECIAL_TERMS) {
      const exchange = await context.send({ [context.parameters.search.name]: term });
      const records = recordsOf(exchange);
      if (!records) {
        unusable.push(exchange);
        continue;
      }
      const finding = searchAnswerFinding(term, records);
      if (finding) findings.push({ ...finding, exchange });
    }
    if (unusable.length === SPECIAL_TERMS.length) return noEvidence(`no special term got a 200 array: ${describeAnswers(unusable)}`);
    return findings;
  },
};
