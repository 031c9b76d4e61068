// Runs the kit against a server none of us wrote: Prism's mock of our spec. The README shows the
// resulting table; this test fails when it is out of date (TEMPMON_UPDATE_README=1 rewrites it).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run-contract.ts';
import type { ContractReport } from '../../src/contract/types.ts';
import { spec } from '../helpers.ts';

const README = new URL('../../README.md', import.meta.url);
// The start marker may say more before its `-->` (which file generates the table).
const START = /<!-- prism-table:start[^\n]*-->/;
const END = '<!-- prism-table:end -->';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const port = await freePort();
const prism = spawn(
  process.execPath,
  [
    new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url).pathname,
    'mock',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    'spec/openapi.yaml',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
afterAll(() => void prism.kill('SIGTERM'));
await new Promise<void>((resolve, reject) => {
  let output = '';
  const timer = setTimeout(() => reject(new Error(`prism did not start: ${output}`)), 30_000);
  const onData = (chunk: Buffer) => {
    output += chunk;
    if (output.includes('Prism is listening')) {
      clearTimeout(timer);
      resolve();
    }
  };
  prism.stdout.on('data', onData);
  prism.stderr.on('data', onData);
  prism.on('exit', (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
});

const report = await runContract({ target: `http://127.0.0.1:${port}`, apiKey: 'any-key-prism-accepts', document: spec.document, seed: 1 });

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

  it('matches the table in README.md', () => {
    const readme = readFileSync(README, 'utf8');
    const start = START.exec(readme);
    const end = readme.indexOf(END);
    expect(start && end > start.index, 'README.md lacks the prism-table markers').toBe(true);
    const updated = `${readme.slice(0, start!.index + start![0].length)}\n${table(report)}\n${readme.slice(end)}`;
    if (process.env.TEMPMON_UPDATE_README === '1') writeFileSync(README, updated);
    expect(readme === updated, 'README table is stale: TEMPMON_UPDATE_README=1 npx vitest run test/contract/prism-mock.slow.test.ts').toBe(
      true,
    );
  });
});
