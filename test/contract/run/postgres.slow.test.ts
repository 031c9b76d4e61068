// The kit against a real database: a reference server on PostgreSQL (Debian's package; CI installs it in .ci/run),
// with the default data. On a machine without PostgreSQL this file is skipped with a warning saying how to enable
// it, except under CI=true where that fails.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../../src/contract/types.ts';
import { DEFAULT_DATASET, generateDataset } from '../../../src/fixtures/generate-dataset.ts';
import { KEY, spec } from '../../helpers.ts';
import { runContractCli } from '../targets/hostile-servers.ts';
import { PG_INSTALL, pgBin, startPgCluster, type PgCluster } from '../targets/pg-cluster.ts';
import { loadPg, pgListings, servePg, type PgVariant } from '../targets/pg-reference-server.ts';

const bin = pgBin();
if (!bin && process.env.CI) throw new Error(`PostgreSQL is missing: .ci/run must install Debian's postgresql (${PG_INSTALL})`);
if (!bin)
  console.warn(
    [
      '',
      'SKIPPED: the kit against PostgreSQL (test/contract/run/postgres.slow.test.ts): no /usr/lib/postgresql/*/bin/postgres.',
      `  To run it: ${PG_INSTALL}   (CI installs it; under CI=true a missing PostgreSQL fails the run)`,
      '',
    ].join('\n'),
  );

const listings = pgListings(spec.document);

describe.skipIf(!bin)(`the kit against PostgreSQL${bin ? '' : ` (skipped: no PostgreSQL; to run it: ${PG_INSTALL})`}`, () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  const dir = mkdtempSync(join(tmpdir(), 'tempmon-pg-runs-'));
  let runs = 0;

  beforeAll(async () => {
    cluster = startPgCluster(bin!);
    pool = new pg.Pool({ host: cluster.socketDir, user: cluster.user, database: 'postgres', max: 20 });
    await loadPg(pool, listings, generateDataset(spec.document, DEFAULT_DATASET) as Record<string, Record<string, unknown>[]>);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A default run of the built CLI against the reference server with `variant`, its report read back. */
  const run = async (variant: PgVariant, args: readonly string[] = []) => {
    const server = await servePg({ pool, listings, key: KEY, variant });
    try {
      runs += 1;
      const json = join(dir, `run-${runs}.json`);
      const result = await runContractCli(['--target', server.url, '--seed', '7', '--json', json, ...args], {
        env: { TEMPMON_API_KEY: KEY },
        killAfterMs: 280_000,
      });
      const report = JSON.parse(readFileSync(json, 'utf8')) as ContractReport;
      const failed = (check: string) => report.outcomes.filter((o) => o.check === check && o.status === 'failed');
      return { result, report, failed, verdict: result.stdout.trimEnd().split('\n').at(-1) ?? '' };
    } finally {
      await server.close();
    }
  };

  it('a default run against the reference server with the default data is conformant', async () => {
    const { verdict, report, result } = await run('conformant');
    expect(verdict, result.stdout.slice(-4000)).toBe('conformant');
    console.info(`PostgreSQL, default data: ${report.summary.requests} requests in ${result.seconds.toFixed(1)} s`);
  }, 300_000);

  it.each([
    ['unescaped-like', 'the term spliced into LIKE unescaped', 'search_special_terms', 'error', []],
    ['row-text', 'a whole-row text search (alerts::text ILIKE ...)', 'search_special_terms', 'error', []],
    ['count-ignores-search', 'a count that ignores the search', 'total_count_header', 'warning', ['--strict']],
    ['null-optional', 'null for an absent optional field', 'response_schema_conformance', 'warning', ['--strict']],
  ] as const)(
    'catches %s (%s): %s fails, graded %s',
    async (variant, _, check, severity, args) => {
      const { verdict, failed, report, result } = await run(variant, [...args]);
      expect(verdict, result.stdout.slice(-4000)).toMatch(/^NOT conformant/);
      const findings = failed(check).flatMap((o) => o.failures);
      const all = report.outcomes
        .filter((o) => o.status === 'failed')
        .map((o) => `${o.check}: ${o.failures[0]?.severity} ${o.failures[0]?.message}`);
      expect(findings.length, all.join('\n')).toBeGreaterThan(0);
      expect(findings.some((f) => f.severity === severity)).toBe(true);
    },
    300_000,
  );

  it('a query that truly hangs fails response_received, alone', async () => {
    // Searches for a term nothing holds sleep 30 s; the kit gives up after 2 s, and alone again.
    const { failed, result } = await run('hang', ['--checks', 'response_received,search_no_match', '--timeout', '2000']);
    const findings = failed('response_received').flatMap((o) => o.failures);
    expect(
      findings.some((f) => f.severity === 'error'),
      result.stdout.slice(-3000),
    ).toBe(true);
  }, 300_000);
});
