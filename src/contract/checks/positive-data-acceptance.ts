import type { Finding, ScenarioCheck } from '../check.ts';
import { pageQuery, recordsOf, unusable } from '../check.ts';
import { boundaryIntegerValues } from './invalid-values.ts';

/** page 1, pageSize at its minimum and maximum, and an unknown extra parameter get 200 with an array. */
export const positiveDataAcceptance: ScenarioCheck = {
  name: 'positive_data_acceptance',
  kind: 'scenario',
  description: 'valid page and pageSize values at their limits, and an unknown parameter, get 200',
  async run(context) {
    const { page, pageSize } = context.parameters;
    const findings: Finding[] = [];
    const probes: [Record<string, string>, 'error' | 'warning'][] = [
      ...boundaryIntegerValues(page.schema).map((v): [Record<string, string>, 'error'] => [{ [page.name]: v }, 'error']),
      ...boundaryIntegerValues(pageSize.schema).map((v): [Record<string, string>, 'error'] => [{ [pageSize.name]: v }, 'error']),
      [pageQuery(context, 1, 1), 'error'],
      // That unknown parameters are ignored is our assumption.
      [{ tempmonUnknownParameter: 'x' }, 'warning'],
    ];
    for (const [query, severity] of probes) {
      const exchange = await context.send(query);
      if (exchange.response && exchange.response.status >= 500) continue;
      if (!recordsOf(exchange) && exchange.response) findings.push(unusable(exchange, severity, `${new URLSearchParams(query)} was refused`));
    }
    return findings;
  },
};
