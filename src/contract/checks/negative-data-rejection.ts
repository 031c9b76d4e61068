import { answered, describeAnswers, noEvidence, preview, recordsOf, type Finding, type ScenarioCheck } from '../check.ts';
import type { Exchange } from '../types.ts';
import { generatedInvalidIntegers, invalidIntegerValues } from './invalid-values.ts';

/** Generated invalid values per parameter, besides the fixed edges. */
const GENERATED = 6;

/** page and pageSize outside their stated limits, or not integers, get a 4xx. */
export const negativeDataRejection: ScenarioCheck = {
  name: 'negative_data_rejection',
  kind: 'scenario',
  judgesEachAnswer: true,
  description: 'page and pageSize values outside their limits or not integers (edges and generated values) get a 4xx',
  evidence: 'a 200 listing for a valid request, and a non-5xx answer to the invalid ones',
  async run(context) {
    const baseline = await context.send({});
    if (!recordsOf(baseline)) return noEvidence(`a valid request did not get a 200 listing: ${describeAnswers([baseline])}`);
    const findings: Finding[] = [];
    const unseen: Exchange[] = [];
    let sent = 0;
    for (const parameter of [context.parameters.page, context.parameters.pageSize]) {
      const values = [
        ...new Set([...invalidIntegerValues(parameter.schema), ...generatedInvalidIntegers(parameter.schema, context.seed, GENERATED)]),
      ];
      for (const value of values) {
        const exchange = await context.send({ [parameter.name]: value });
        sent += 1;
        // A 5xx is not_a_server_error's to report, a redirect hides the answer: neither says "accepted".
        if (!answered(exchange)) {
          unseen.push(exchange);
          continue;
        }
        const status = exchange.response!.status;
        if (status >= 400) continue;
        findings.push({
          severity: 'error',
          message: `${parameter.name}=${value} was accepted`,
          expected: '4xx',
          actual: `${status} ${preview(exchange.response?.text ?? '', 60)}`,
          exchange,
        });
      }
    }
    if (unseen.length === sent) return noEvidence(`no invalid value got an answer to judge: ${describeAnswers(unseen)}`);
    return findings;
  },
};
