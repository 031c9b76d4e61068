import type { Finding, ScenarioCheck } from '../check.ts';
import { preview } from '../check.ts';
import { invalidIntegerValues } from './invalid-values.ts';

/** page and pageSize outside their stated limits, or not integers, get a 4xx. */
export const negativeDataRejection: ScenarioCheck = {
  name: 'negative_data_rejection',
  kind: 'scenario',
  description: 'page and pageSize values outside their limits or not integers get a 4xx',
  async run(context) {
    const findings: Finding[] = [];
    for (const parameter of [context.parameters.page, context.parameters.pageSize]) {
      for (const value of invalidIntegerValues(parameter.schema)) {
        const exchange = await context.send({ [parameter.name]: value });
        const status = exchange.response?.status;
        // 5xx is not_a_server_error's to report; here only acceptance is wrong.
        if (status === undefined || status >= 400) continue;
        findings.push({
          severity: 'error',
          message: `${parameter.name}=${value} was accepted`,
          expected: '4xx',
          actual: `${status} ${preview(exchange.response?.text ?? '', 60)}`,
          exchange,
        });
      }
    }
    return findings;
  },
};
