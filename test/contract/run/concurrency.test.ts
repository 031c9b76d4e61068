import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../../src/contract/checks/index.ts';
import { jsonReport } from '../../../src/contract/reports/json-report.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import type { Place, Exchange, FetchLike } from '../../../src/contract/types.ts';
import { openHarLog, withHarEntries } from '../../../src/contract/reports/har-log.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { KEY, spec } from '../../helpers.ts';
import { FAULTS } from '../targets/broken-mocks.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 130, sensors: 30 } } });

/**
 * A target with several faults at once, so that many checks have findings; one of them (an undocumented field)
 * only on searches, which several checks send: which exchange a report shows for it depends on the order kept.
 */
function faulty(): FetchLike {
  const chosen = ['overlapping pages', 'X-Total-Count off by one', 'search is case-sensitive'];
  const faults = chosen.map((name) => FAULTS.find((f) => f.name === name)!);
  const inner = (request: Request) =>
    faults.reduceRight<(r: Request) => Promise<Response>>(
      (next, fault) => (r) => fault.handle(r, next),
      async (r) => app.fetch(r),
    )(request);
  return async (request) => {
    const response = await inner(request);
    const term = new URL(request.url).searchParams.get('search');
    if (!term || response.status !== 200) return response;
    const records = (await response.json()) as Record<string, unknown>[];
    return Response.json(
      records.map((record) => ({ ...record, [`searched_${term.length}`]: term })),
      { headers: response.headers },
    );
  };
}

/** `target` answering each request after a delay drawn from `seed`: answers come back in another order per seed. */
function shuffled(target: FetchLike, seed: number): FetchLike & { readonly most: () => number } {
  let state = seed;
  let inFlight = 0;
  let most = 0;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const fetch = async (request: Request) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 8)));
    try {
      return await target(request);
    } finally {
      inFlight -= 1;
    }
  };
  return Object.assign(fetch, { most: () => most });
}

/** The report without what time decides: durations, requests in flight, the timing section, the plan's estimate. */
const timeless = (report: Awaited<ReturnType<typeof runContract>>) =>
  JSON.parse(jsonReport(report, { headerValues: [] }), (key, value) =>
    ['durationMs', 'inFlight', 'timing', 'estimateMs'].includes(key) ? undefined : value,
  );

type HarEntry = { request: { method: string; url: string }; response: { status: number } };
const entryLine = (e: HarEntry) => `${e.request.method} ${e.request.url} ${e.response.status}`;
const line = (e: Exchange) => `${e.request.method} ${e.request.url} ${e.response?.status ?? 0}`;
const dir = mkdtempSync(join(tmpdir(), 'tempmon-concurrency-'));

const run = (fetch: FetchLike, concurrency?: number, record?: (exchange: Exchange, place: Place) => void) =>
  runContract({
    target: 'http://target.test',
    apiKey: KEY,
    document: spec.document,
    fetch,
    seed: 9,
    examples: 10,
    strict: true,
    ...(concurrency ? { concurrency } : {}),
    ...(record ? { record } : {}),
  });

/**
 * What the scenario checks of a report found, without the exchanges shown. (The response checks judge every
 * answer, and in parallel more are sent: generated requests sent ahead of a failure that ends the exploration.)
 */
const found = (report: Awaited<ReturnType<typeof runContract>>) =>
  report.outcomes
    .filter((o) => ALL_CHECKS.find((c) => c.name === o.check)?.kind === 'scenario')
    .map((o) => [o.operationId, o.check, o.status, o.failures.map((f) => f.message)]);

describe('requests in parallel', () => {
  it('gives the same findings in the same order whatever order answers arrive in, with at most 8 requests in flight', async () => {
    const first = shuffled(faulty(), 1);
    const second = shuffled(faulty(), 7);
    // Each run's HAR: written as answers arrive, then put in the run's order when closed.
    const arrived: string[][] = [[], []];
    const withHar = async (fetch: FetchLike, n: 0 | 1) => {
      const har = openHarLog(join(dir, `run-${n}.har`), '0.0.0-test');
      const report = await run(fetch, undefined, (e, place) => {
        arrived[n]!.push(line(e));
        har.add(e, place);
      });
      har.close();
      const entries = JSON.parse(readFileSync(join(dir, `run-${n}.har`), 'utf8')).log.entries as HarEntry[];
      return { report: withHarEntries(report, har), entries: entries.map(entryLine) };
    };
    const [a, b] = [await withHar(first, 0), await withHar(second, 1)];
    expect(a.entries.length).toBe(a.report.summary.requests);
    // Answers arrived in other orders; the HARs hold the same entries in the same order all the same.
    expect(arrived[1]).not.toEqual(arrived[0]);
    expect(b.entries).toEqual(a.entries);
    expect(a.report.verdict).toBe('not conformant');
    expect(a.report.summary.failed).toBeGreaterThanOrEqual(3);
    expect([first.most(), second.most()]).toEqual([8, 8]);
    // The findings the same, in the same order, naming the same HAR entries.
    expect(timeless(b.report)).toEqual(timeless(a.report));
    expect(a.report.outcomes.some((o) => o.failures.some((f) => (f.harEntries?.length ?? 0) > 0))).toBe(true);
  });

  it('with --concurrency 1 sends one request at a time, and finds the same', async () => {
    const one = shuffled(faulty(), 3);
    const [sequential, parallel] = [await run(one, 1), await run(shuffled(faulty(), 3))];
    expect(one.most()).toBe(1);
    expect(found(sequential)).toEqual(found(parallel));
  });
});
