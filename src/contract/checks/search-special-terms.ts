import type { Finding, ScenarioCheck } from '../check.ts';
import { identities, recordsOf } from '../check.ts';
import { containsTerm } from './search-term.ts';

/** Terms that break naive SQL, regex or URL handling, and a long one. */
export const SPECIAL_TERMS = ['(', '[', '%', "'", '"', '\\', '.*', '%_', 'température ❄', '😀', 'x'.repeat(1000)];

/**
 * Special characters and long terms never give a 5xx (not_a_server_error reports those), and whatever
 * comes back contains the term literally (assumed: warnings).
 */
export const searchSpecialTerms: ScenarioCheck = {
  name: 'search_special_terms',
  kind: 'scenario',
  description: 'special characters and a 1,000-character term are searched literally, never a 5xx',
  async run(context) {
    const findings: Finding[] = [];
    for (const term of SPECIAL_TERMS) {
      const exchange = await context.send({ [context.parameters.search.name]: term });
      const strays = (recordsOf(exchange) ?? []).filter((r) => !containsTerm(r, term));
      if (strays.length === 0) continue;
      const shown = term.length > 20 ? `${term.slice(0, 20)}… (${term.length} characters)` : term;
      findings.push({ severity: 'warning', message: `${strays.length} results for ${JSON.stringify(shown)} do not contain it literally`, expected: 'only records containing the term', actual: identities(strays.slice(0, 3)).join(', '), exchange });
    }
    return findings;
  },
};
