import type { Finding, ScenarioCheck } from '../check.ts';
import { preview } from '../check.ts';

// Fixed, so a failing run can be replayed exactly.
const WRONG_KEY = 'tempmon-contract-wrong-key-3f9c2a';

/** No key, an empty key and a wrong key each get 401 or 403, and no records. */
export const ignoredAuth: ScenarioCheck = {
  name: 'ignored_auth',
  kind: 'scenario',
  description: 'no key, an empty key and a wrong key each get 401 or 403 and no records',
  skip: ({ operation }) => (operation.apiKeyHeader ? undefined : 'the operation is not secured by an API key'),
  async run(context) {
    const findings: Finding[] = [];
    for (const [label, apiKey] of [['no key', null], ['an empty key', ''], ['a wrong key', WRONG_KEY]] as const) {
      const exchange = await context.send({}, { apiKey });
      const response = exchange.response;
      if (!response) continue; // response_received reports it
      if (response.status < 400) {
        findings.push({
          severity: 'error',
          message: `${label} was accepted`,
          expected: '401 or 403 without records',
          actual: `${response.status} ${preview(response.text, 80)}`,
          exchange,
        });
      } else if (Array.isArray(response.json) && response.json.length > 0) {
        findings.push({ severity: 'error', message: `${label} got records with status ${response.status}`, expected: 'no records', actual: preview(response.text, 80), exchange });
      } else if (response.status !== 401 && response.status !== 403) {
        // The interface shows no error statuses; 401/403 is what our spec assumes.
        findings.push({ severity: 'warning', message: `${label} got ${response.status}`, expected: '401 or 403', actual: String(response.status), exchange });
      }
    }
    return findings;
  },
};
