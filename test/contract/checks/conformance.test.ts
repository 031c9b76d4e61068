// The contract checks as a vitest suite, one test per check per operation. `npm run test:contract`
// targets CONTRACT_TARGET with CONTRACT_API_KEY when set; otherwise (and inside `npm test`) an
// in-process mock, with no port.
import { describe, expect, it } from 'vitest';
import { toCurl } from '../../../src/contract/reports/curl.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import type { Failure } from '../../../src/contract/types.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { KEY, spec } from '../../helpers.ts';

const live = process.env.CONTRACT_TARGET;

function inProcess() {
  const app = createApp({ spec });
  return (request: Request) => app.fetch(request);
}

const report = await runContract({
  target: live ?? 'http://in-process.mock',
  apiKey: live ? process.env.CONTRACT_API_KEY : KEY,
  document: spec.document,
  strict: process.env.CONTRACT_STRICT !== '0',
  ...(live ? {} : { fetch: inProcess() }),
});

const explain = (f: Failure) =>
  [
    `${f.severity}: ${f.message}`,
    `expected: ${f.expected ?? ''}`,
    `actual: ${f.actual ?? ''}`,
    f.exchange ? toCurl(f.exchange.request) : '',
  ].join('\n  ');

describe(`contract of ${report.target}`, () => {
  for (const operationId of new Set(report.outcomes.map((o) => o.operationId))) {
    describe(operationId, () => {
      for (const outcome of report.outcomes.filter((o) => o.operationId === operationId)) {
        if (outcome.status === 'skipped') {
          it.skip(`${outcome.check} (${outcome.skipReason})`, () => undefined);
          continue;
        }
        it(outcome.check, () => {
          expect(outcome.status === 'failed' ? outcome.failures.map(explain) : []).toEqual([]);
        });
      }
    });
  }
});
