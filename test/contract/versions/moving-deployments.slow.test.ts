// Issue 48: the versions rule against deployments whose data moves in real time, each in a child process of its
// own: conformant ones shaped like real deployments pass, broken ones that look alike fail. A new alert arrives
// every 250 ms through each run; the runs take seconds to minutes of real time, so they belong to the slow suite.
import { afterAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../../src/contract/types.ts';
import { LISTINGS } from '../../helpers.ts';
import { runAgainstDeployment as runAgainst, stopDeployments } from '../targets/run-against-deployment.ts';

afterAll(stopDeployments);

/** What failed, warned or could not be evaluated, one line each. */
const problems = (report: ContractReport) =>
  report.outcomes
    .filter((o) => o.status === 'failed' || o.status === 'warned' || (o.status === 'skipped' && o.skipCause === 'no-evidence'))
    .map((o) => `${o.operationId} ${o.check}: ${o.failures[0]?.message ?? o.skipReason}`);

const moving = LISTINGS[0]!.operationId;
/** The consistency figures of the listing whose data moves. */
const consistency = (report: ContractReport) => report.coverage?.find((c) => c.operationId === moving)?.consistency;

describe('conformant deployments whose data moves while the kit reads them', { timeout: 600_000 }, () => {
  it.each([1, 2])('seed %i: two replicas in turn, one a record behind: conformant, a record behind measured', async (seed) => {
    const report = await runAgainst('replicas', seed);
    expect(problems(report)).toEqual([]);
    expect(consistency(report)!.behindRecords).toBe(1);
  });

  // Not yet every time: 20 of 20, then 19 of 20 in this stop's two tables of seeds 1-20 (seed 10: a page at the
  // listing's tail one record deeper than any admissible version gives, as from the replica ahead, which the run's
  // reads of the head, each on a connection pinned to the one behind, may not reach; conformant when run again).
  it.todo('two replicas, each keep-alive connection pinned to one: conformant');

  it.each([1, 2])('seed %i: alerts resolved and gone from the middle of the listing, one a second: conformant', async (seed) => {
    const report = await runAgainst('resolving', seed);
    expect(problems(report)).toEqual([]);
  });

  it.each([
    [1, 1_000],
    [2, 1_000],
    [1, 5_000],
    [2, 5_000],
  ])(
    'seed %i: a search index refreshed every %i ms: conformant with the default --max-staleness, its lag measured',
    async (seed, refreshMs) => {
      const report = await runAgainst('index', seed, { refreshMs });
      expect(problems(report)).toEqual([]);
      // A search is behind by up to a refresh; the pages are not.
      expect(consistency(report)).toMatchObject({ behindRecords: 0, pageStalenessMs: 0 });
      expect(consistency(report)!.searchStalenessMs).toBeLessThanOrEqual(refreshMs + 500);
    },
  );

  it.each([1, 2])('seed %i: a single server gaining an alert every 250 ms: conformant, no staleness', async (seed) => {
    const report = await runAgainst('single', seed);
    expect(problems(report)).toEqual([]);
    expect(consistency(report)).toMatchObject({ behindRecords: 0, pageStalenessMs: 0 });
    expect(consistency(report)!.versions).toBeGreaterThan(1);
  });

  it('sliding (a window: the oldest record leaves as one arrives): conformant', async () => {
    const report = await runAgainst('sliding', 1);
    expect(problems(report)).toEqual([]);
  });

  it.each([1, 2])('seed %i: records edited in place every second: conformant', async (seed) => {
    const report = await runAgainst('editing', seed);
    expect(problems(report)).toEqual([]);
  });
});

describe('--max-staleness 0: a linearizable listing asked for', { timeout: 600_000 }, () => {
  it('a single server gaining an alert every 250 ms passes it', async () => {
    const report = await runAgainst('single', 1, {}, { maxStalenessMs: 0 });
    expect(problems(report)).toEqual([]);
  });

  it('two replicas in turn, one a record behind, fail it with a finding naming both versions', async () => {
    const report = await runAgainst('replicas', 1, {}, { maxStalenessMs: 0 });
    expect(report.verdict).toBe('not conformant');
    const found = report.outcomes.flatMap((o) => o.failures).map((f) => f.message);
    // A listing longer than the run read is named with a lower bound ("305+ records").
    const listing = 'the listing of (\\d+)\\+? records whose newest is [\\w-]+';
    const bothNamed = new RegExp(
      `the closest, ${listing}, gives .*; ${listing} gave it, left behind|only ${listing} gives it, .*they showed ${listing}`,
    );
    const named = found.map((m) => bothNamed.exec(m)).find((m) => m);
    expect(named, found.join('\n')).toBeTruthy();
    // Two versions: the one the run had read when it was sent, and an older one that gave the answer.
    const [newer, older] = [Number(named![1] ?? named![4]), Number(named![2] ?? named![3])];
    expect(newer, named![0]).toBeGreaterThan(older);
  });
});

describe('broken deployments that look alike, while the data moves', { timeout: 600_000 }, () => {
  it.each([
    ['other-term', 'a search answered with the search before it'],
    ['search-after-paging', 'a search applied after paging'],
    ['unfiltered-later-pages', 'page 2 and later of a search unfiltered'],
    ['count-off', 'a count one off'],
  ] as const)('%s (%s) is NOT conformant, a finding naming the versions', async (shape, _what) => {
    const report = await runAgainst(shape, 1);
    expect(report.verdict).toBe('not conformant');
    const found = report.outcomes.flatMap((o) => o.failures).map((f) => f.message);
    expect(
      found.some((m) => /no version of the listing admissible|a version older than/.test(m)),
      found.join('\n'),
    ).toBe(true);
  });

  it('overlap (page 2 repeats the last record of page 1 in every version) is NOT conformant', async () => {
    const report = await runAgainst('overlap', 1);
    expect(report.verdict).toBe('not conformant');
    expect(report.outcomes.find((o) => o.operationId === moving && o.check === 'pagination_consistency')?.status).toBe('failed');
  });
});
