// The kit against a real database: a reference server on PostgreSQL (Debian's package; CI installs it in .ci/run),
// with the default data. On a machine without PostgreSQL this file is skipped with a warning saying how to enable
// it, except under CI=true where that fails.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * A cluster of its own loaded with `dataset` for the tests of a describe block, and `run`: a default run of the
 * built CLI against the reference server on it with a variant (and the guard, when `longestValue` is given), its
 * report read back.
 */
function pgSuite(
  dataset: () => Record<string, Record<string, unknown>[]>,
  { searchMs }: { searchMs?: { low: number; high: number } } = {},
) {
  let cluster: PgCluster;
  let pool: pg.Pool;
  let longest = 0;
  const dir = mkdtempSync(join(tmpdir(), 'tempmon-pg-runs-'));
  let runs = 0;

  beforeAll(async () => {
    cluster = startPgCluster(bin!);
    pool = new pg.Pool({ host: cluster.socketDir, user: cluster.user, database: 'postgres', max: 20 });
    const records = dataset();
    // The longest string a record holds (array elements too): a longer term can match nothing.
    for (const rows of Object.values(records))
      for (const record of rows)
        for (const value of Object.values(record).flat()) if (typeof value === 'string') longest = Math.max(longest, value.length);
    await loadPg(pool, listings, records);
    if (searchMs) await calibrate(pool, searchMs);
  }, 240_000);
  afterAll(async () => {
    await pool?.end();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  return async (variant: PgVariant, args: readonly string[] = [], { guard = false } = {}) => {
    const server = await servePg({ pool, listings, key: KEY, variant, ...(guard ? { longestValue: longest } : {}) });
    try {
      runs += 1;
      const json = join(dir, `run-${runs}.json`);
      const result = await runContractCli(['--target', server.url, '--seed', '7', '--json', json, ...args], {
        env: { TEMPMON_API_KEY: KEY },
        killAfterMs: 340_000,
        measureRss: true,
      });
      // A run that wrote no report says why: its exit and output, not a missing file.
      if (!existsSync(json))
        throw new Error(
          `no JSON report: exit ${result.status ?? result.signal} after ${result.seconds.toFixed(1)} s\n${result.stdout}\n${result.stderr}`,
        );
      const report = JSON.parse(readFileSync(json, 'utf8')) as ContractReport;
      const failed = (check: string) => report.outcomes.filter((o) => o.check === check && o.status === 'failed');
      return { result, report, failed, verdict: result.stdout.trimEnd().split('\n').at(-1) ?? '' };
    } finally {
      await server.close();
    }
  };
}

describe.skipIf(!bin)(`the kit against PostgreSQL${bin ? '' : ` (skipped: no PostgreSQL; to run it: ${PG_INSTALL})`}`, () => {
  const run = pgSuite(() => generateDataset(spec.document, DEFAULT_DATASET) as Record<string, Record<string, unknown>[]>);

  it('a default run against the reference server with the default data is conformant, under --strict too', async () => {
    const { verdict, report, result } = await run('conformant', ['--strict']);
    expect(verdict, result.stdout.slice(-4000)).toBe('conformant');
    // Its problems' `instance` is the URL as sent: the query road's probe carried the key there, and got it back.
    const echoes = report.outcomes.filter((o) => o.check === 'no_secret_in_answers').flatMap((o) => o.failures);
    expect(echoes.length).toBeGreaterThan(0);
    expect(echoes.every((f) => f.severity === 'note')).toBe(true);
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

/**
 * What these runs prove is the kit against a search that takes seconds alone (the band `searchMs`), not this
 * machine's speed: where a search of the whole first table takes longer alone, its oldest rows go until one takes
 * about the middle of the band (a search's time grows with the rows it scans). The figures are printed.
 */
async function calibrate(pool: pg.Pool, searchMs: { low: number; high: number }) {
  const table = listings[0]!.table;
  const timeSearch = async () => {
    const server = await servePg({ pool, listings, key: KEY, variant: 'conformant' });
    try {
      const started = performance.now();
      const response = await fetch(`${server.url}${listings[0]!.path}?search=zq-calibrate`, { headers: { 'x-api-key': KEY } });
      await response.text();
      return performance.now() - started;
    } finally {
      await server.close();
    }
  };
  await pool.query(`VACUUM ANALYZE ${table}`); // before any server set a statement timeout on the pool's connections
  const rows = async () => (await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
  const before = { rows: await rows(), ms: Math.min(await timeSearch(), await timeSearch()) };
  if (before.ms <= searchMs.high) {
    console.info(`PostgreSQL: a search of ${before.rows} ${table} takes ${Math.round(before.ms)} ms alone here`);
    return;
  }
  const keep = Math.floor((before.rows * (searchMs.low + searchMs.high)) / 2 / before.ms);
  // On a connection of its own: the server's connections keep the statement timeout it sets.
  const client = await pool.connect();
  try {
    await client.query('SET statement_timeout = 0');
    const order = 'ORDER BY created_at DESC, id ASC';
    await client.query(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} ${order} OFFSET ${keep})`);
    await client.query(`VACUUM FULL ANALYZE ${table}`);
  } finally {
    client.release();
  }
  console.info(
    `PostgreSQL: a search of ${before.rows} ${table} took ${Math.round(before.ms)} ms alone here, over ${searchMs.high} ms: ` +
      `${keep} kept, a search now ${Math.round(await timeSearch())} ms`,
  );
}

/** The 200,000-alert runs take minutes: CI runs them on one Node major (TEMPMON_PG_LARGE=1 in .ci/run). */
const large = process.env.TEMPMON_PG_LARGE === '1';
if (bin && !large) console.warn('\nSKIPPED: the kit against PostgreSQL with 200,000 alerts (minutes): set TEMPMON_PG_LARGE=1 to run it.\n');
/**
 * The shape of the large runs: alerts loaded, and the band of time a search takes alone (cut to its middle where it
 * takes longer). By default a search of about 4 s, well inside the default --timeout of 10 s under the run's own load;
 * TEMPMON_PG_LARGE_ALERTS=340000 TEMPMON_PG_LARGE_SEARCH_MS=5000-7000 gives issue 49's slower machine, where a search
 * takes 5-7 s alone.
 */
const shape = {
  alerts: Number(process.env.TEMPMON_PG_LARGE_ALERTS ?? 200_000),
  searchMs: (([low, high]) => ({ low: low!, high: high! }))((process.env.TEMPMON_PG_LARGE_SEARCH_MS ?? '3500-5000').split('-').map(Number)),
};

describe.skipIf(!bin || !large)(
  `the kit against PostgreSQL with ${shape.alerts} alerts (fewer where a search alone takes over ${shape.searchMs.high} ms here) and no search index`,
  () => {
    const run = pgSuite(
      () => generateDataset(spec.document, { seed: 1, counts: { alerts: shape.alerts } }) as Record<string, Record<string, unknown>[]>,
      { searchMs: shape.searchMs },
    );

    /** The findings resting on a request that timed out or lost its connection under load and was not tried alone. */
    const underLoadOnly = (report: ContractReport) =>
      report.outcomes
        .flatMap((o) => o.failures)
        .filter(({ exchange }) => exchange?.error && !exchange.firstUnderLoad && (exchange.inFlight ?? 1) > 1);

    it('with the guard a team adds (a term longer than any value matches nothing), a default run is conformant within the default --max-duration', async () => {
      const { report, result } = await run('conformant', [], { guard: true });
      const lines = result.stdout.split('\n');
      // The timing section whole: the limit of all, and each kind's latency, timeouts and own limit.
      const at = lines.findIndex((l) => l.startsWith('timing: '));
      const end = lines.findIndex((l, i) => i > at && !l.startsWith('  '));
      const limits = at < 0 ? undefined : lines.slice(at, end < 0 ? undefined : end).join('\n');
      const more = lines.find((l) => l.startsWith('judged in the time left: ')) ?? 'nothing judged in the time left';
      const pairs = lines.find((l) => l.startsWith('pairs of parameter classes covered: '));
      console.info(
        `PostgreSQL, the large alerts table (its size above), guarded: ${report.verdict} in ${result.seconds.toFixed(0)} s, ${report.summary.requests} requests, ` +
          `peak RSS ${result.peakRssMb === undefined ? '?' : Math.round(result.peakRssMb)} MB; ${report.plan?.why ?? 'nothing trimmed'}; ` +
          `estimate ${Math.round((report.plan?.estimateMs ?? 0) / 1000)} s; ${more}; ${pairs}; ${limits}${result.stderr ? `\n${result.stderr.slice(-3000)}` : ''}`,
      );
      expect(report.verdict, result.stdout.slice(-5000)).toBe('conformant');
      expect(result.seconds).toBeLessThan(300);
      // A plan trimmed to fit its time uses it: within 80-100% of --max-duration (issue 49, item 6).
      if (report.plan?.why) expect(result.seconds).toBeGreaterThanOrEqual(0.8 * 300);
      expect(underLoadOnly(report)).toEqual([]);
    }, 360_000);

    it('without the guard, every finding is true: none rests on a timeout the request does not show alone', async () => {
      const { report, result } = await run('conformant');
      expect(underLoadOnly(report)).toEqual([]);
      // A response_received error is a request that failed alone too.
      for (const failure of report.outcomes.filter((o) => o.check === 'response_received').flatMap((o) => o.failures))
        if (failure.severity === 'error')
          expect(failure.exchange?.firstUnderLoad ?? failure.exchange?.inFlight === 1, failure.message).toBeTruthy();
      const found = report.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.check}: ${o.failures[0]?.message}`);
      console.info(
        `PostgreSQL, the large alerts table (its size above), no guard: ${result.stdout.trimEnd().split('\n').at(-1)} in ${result.seconds.toFixed(0)} s; ${found.join('; ')}`,
      );
    }, 360_000);
  },
);
