// Runs the kit against a server none of us wrote: Prism's mock of our spec. docs/contract.md shows the
// resulting table; this test fails when it is out of date (TEMPMON_UPDATE_README=1 rewrites it).
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import type { ContractReport } from '../../../src/contract/types.ts';
import { spec } from '../../helpers.ts';
import { startPrism } from '../../prism-cli.ts';

const README = new URL('../../../docs/contract.md', import.meta.url);
// The start marker may say more before its `-->` (which file generates the table).
const START = /<!-- prism-table:start[^\n]*-->/;
const END = '<!-- prism-table:end -->';

const prism = await startPrism('mock', { timeoutMs: 30_000 });
afterAll(() => void prism.child.kill('SIGTERM'));

const report = await runContract({ target: prism.url, apiKey: 'any-key-prism-accepts', document: spec.document, seed: 1 });

/** One row per check: its verdict for each operation. */
function table(result: ContractReport): string {
  const operations = [...new Set(result.outcomes.map((o) => o.operationId))];
  const rows = [...new Set(result.outcomes.map((o) => o.check))].map((check) => {
    const cells = operations.map((op) => result.outcomes.find((o) => o.check === check && o.operationId === op)!.status);
    return `| \`${check}\` | ${cells.join(' | ')} |`;
  });
  return [`| Check | ${operations.join(' | ')} |`, `|---|${operations.map(() => '---').join('|')}|`, ...rows].join('\n');
}

describe("Prism's mock of our spec, checked by the kit", () => {
  it('serves valid examples: schema, status and content type conform', () => {
    for (const check of ['response_schema_conformance', 'status_code_conformance', 'content_type_conformance', 'not_a_server_error']) {
      expect(report.outcomes.filter((o) => o.check === check).map((o) => o.status)).toEqual(['passed', 'passed']);
    }
  });

  it('is caught ignoring search, paging and the key value', () => {
    const status = (check: string) => report.outcomes.filter((o) => o.check === check).map((o) => o.status);
    // The interface states the search parameter: ignoring it altogether is an error.
    expect(status('search_no_match')).toEqual(['failed', 'failed']);
    expect(status('pagination_consistency')).toEqual(['failed', 'failed']);
    expect(status('ignored_auth')).toEqual(['failed', 'failed']);
    expect(report.conformant).toBe(false);
  });

  it('matches the table in docs/contract.md', () => {
    const readme = readFileSync(README, 'utf8');
    const start = START.exec(readme);
    const end = readme.indexOf(END);
    expect(start && end > start.index, 'docs/contract.md lacks the prism-table markers').toBe(true);
    const updated = `${readme.slice(0, start!.index + start![0].length)}\n${table(report)}\n${readme.slice(end)}`;
    if (process.env.TEMPMON_UPDATE_README === '1') writeFileSync(README, updated);
    expect(
      readme === updated,
      'The table in docs/contract.md is stale: TEMPMON_UPDATE_README=1 npx vitest run test/contract/run/prism-mock.slow.test.ts',
    ).toBe(true);
  });
});
