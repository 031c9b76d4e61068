import type { Finding, ScenarioCheck } from '../check.ts';
import { identities, identity, needListing, needRecords, noEvidence, pageQuery, recordsOf } from '../check.ts';
import { containsTerm, pickSearchTerm } from './search-term.ts';

/** A term taken from a record finds that record, and every result contains the term (assumed: warnings). */
export const searchFindsRecord: ScenarioCheck = {
  name: 'search_finds_record',
  kind: 'scenario',
  description: 'a term taken from a record finds it, and every result contains the term (assumed)',
  evidence: 'a record with a distinctive string value, and a 200 array for the search',
  async run(context) {
    const missing = needListing(await context.listing(), 1);
    if (missing) return missing;
    const picked = await pickSearchTerm(context);
    if (!picked) return noEvidence('no record has a distinctive string value to search for');
    const max = Number(context.parameters.pageSize.schema.maximum ?? 100);
    const exchange = await context.send(pageQuery(context, 1, max, { [context.parameters.search.name]: picked.term }));
    const unusable = needRecords([exchange], `searching ${JSON.stringify(picked.term)}`);
    if (unusable) return unusable;
    const records = recordsOf(exchange)!;
    const findings: Finding[] = [];
    if (!identities(records).includes(identity(picked.record))) {
      findings.push({
        severity: 'warning',
        message: `searching ${JSON.stringify(picked.term)} did not find ${identity(picked.record)}`,
        expected: `a result ${identity(picked.record)}`,
        actual: `${records.length} results`,
        exchange,
      });
    }
    const strays = records.filter((r) => !containsTerm(r, picked.term));
    if (strays.length > 0) {
      findings.push({
        severity: 'warning',
        message: `${strays.length} of ${records.length} results do not contain ${JSON.stringify(picked.term)}`,
        expected: 'every result contains the term',
        actual: identities(strays.slice(0, 3)).join(', '),
        exchange,
      });
    }
    return findings;
  },
};
