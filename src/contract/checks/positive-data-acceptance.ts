import { answered, describeAnswers, unusable } from '../model/answers.ts';
import { recordsOf } from '../records.ts';
import { noEvidence } from '../model/skip.ts';
import { pageQuery, firstPage } from '../model/listing-query.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { boundaryIntegerValues } from '../material/invalid-values.ts';

/** page 1, pageSize at its minimum and maximum, and an unknown extra parameter get 200 with an array. */
export const positiveDataAcceptance: ScenarioCheck = {
  name: 'positive_data_acceptance',
  kind: 'scenario',
  judgesEachAnswer: true,
  description: 'valid page and pageSize values at their limits, and an unknown parameter, get 200',
  evidence: 'a non-5xx, non-redirect answer to each valid request',
  async run(context) {
    const { page, pageSize } = context.parameters;
    const findings: Finding[] = [];
    const probes: [Record<string, string>, 'error' | 'warning'][] = [
      ...boundaryIntegerValues(page.schema).map((v): [Record<string, string>, 'error'] => [{ [page.name]: v }, 'error']),
      ...boundaryIntegerValues(pageSize.schema).map((v): [Record<string, string>, 'error'] => [{ [pageSize.name]: v }, 'error']),
      [pageQuery(context, firstPage(context.parameters), 1), 'error'],
      // That unknown parameters are ignored is our assumption.
      [{ tempmonUnknownParameter: 'x' }, 'warning'],
    ];
    const unseen: Exchange[] = [];
    for (const [query, severity] of probes) {
      const exchange = await context.send(query);
      if (!answered(exchange)) unseen.push(exchange);
      else if (!recordsOf(exchange)) findings.push(unusable(exchange, severity, `${new URLSearchParams(query)} was refused`));
    }
    if (unseen.length > 0 && findings.length === 0)
      return noEvidence(`${unseen.length} of ${probes.length} valid requests got no answer to judge: ${describeAnswers(unseen)}`);
    return findings;
  },
};
