import { withListing, type ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { describeAnswers, preview, unanswered } from '../model/answers.ts';
import { recordsOf } from '../records.ts';
import { noEvidence, partly } from '../model/skip.ts';
import { sendEach } from '../model/send-each.ts';
import { hazardProbes } from '../material/hazard-terms.ts';
import { searchAnswerFinding } from '../material/lenient-match.ts';

/**
 * Special characters and long terms never give a 5xx (not_a_server_error reports those), and whatever
 * comes back contains the term: an error when no result contains it even read leniently (a `%` read as a SQL
 * wildcard), a warning when some contain it only leniently or not at all (matching is assumed).
 */
export const searchSpecialTerms: ScenarioCheck = {
  name: 'search_special_terms',
  kind: 'scenario',
  judgesEachAnswer: true,
  grows: 'specialTerms',
  description:
    'hazard terms (SQL wildcards, regex, literals, quotes, formats, encodings, control characters, Unicode, 1,000 characters) are searched literally, never a 5xx',
  evidence: 'a listing with at least 1 record, and a 200 array for at least one special term',
  run: withListing(1, async (context) => {
    const findings: { term: string; finding: Finding }[] = [];
    const unusable: { label: string; exchange: Exchange }[] = [];
    const terms = hazardProbes().slice(context.specialTermsFrom ?? 0, context.specialTerms);
    const answers = await sendEach(context, terms, ({ term }) => context.send({ [context.parameters.search.name]: term }));
    for (const [i, { term }] of terms.entries()) {
      const exchange = answers[i]!;
      const records = recordsOf(exchange);
      if (!records) {
        unusable.push({ label: JSON.stringify(preview(term, 20)), exchange });
        continue;
      }
      const finding = searchAnswerFinding(term, records);
      if (finding) findings.push({ term, finding: { ...finding, exchange } });
    }
    if (unusable.length === terms.length)
      return noEvidence(`no special term got a 200 array: ${describeAnswers(unusable.map((u) => u.exchange))}`);
    // A term without a 200 array was not seen searched literally: reported, not passed.
    return partly(
      (['error', 'warning'] as const).flatMap((severity) => folded(findings.filter((f) => f.finding.severity === severity))),
      unanswered('hazard terms', terms.length, unusable),
    );
  }),
};

/**
 * One finding per grade: the first term's, naming how many terms had it and which (a server that ignores
 * search would otherwise fill the report with one line per term).
 */
function folded(found: readonly { term: string; finding: Finding }[]): Finding[] {
  const [first, ...others] = found;
  if (!first) return [];
  if (others.length === 0) return [first.finding];
  const terms = others.map(({ term }) => JSON.stringify(preview(term, 20)));
  return [
    {
      ...first.finding,
      message: `${first.finding.message} (and so for ${others.length} other terms: ${preview(terms.join(' '), 100)})`,
      occurrences: found.length,
    },
  ];
}
