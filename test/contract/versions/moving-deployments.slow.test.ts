// Issue 48: the versions rule against deployments whose data moves in real time, each in a child process of its
// own: conformant ones shaped like real deployments pass, broken ones that look alike fail. A new alert arrives
// every 250 ms through each run; the runs take seconds to minutes of real time, so they belong to the slow suite.
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import type { ContractReport } from '../../../src/contract/types.ts';
import { KEY, LISTINGS, spec } from '../../helpers.ts';
import { type Deployment, type DeploymentOptions, type Shape, startDeployment } from '../targets/moving-deployment.ts';

const running: Deployment[] = [];
afterAll(() => {
  for (const deployment of running) deployment.stop();
});

/** The kit with its default options (but fewer generated requests, to keep the suite short) against `shape`. */
async function runAgainst(shape: Shape, seed: number, options: DeploymentOptions = {}, strict = true): Promise<ContractReport> {
  const deployment = await startDeployment(shape, { seed, ...options });
  running.push(deployment);
  try {
    return await runContract({ target: deployment.url, apiKey: KEY, document: spec.document, seed, examples: 20, strict });
  } finally {
    deployment.stop();
  }
}

/** What failed, warned or could not be evaluated, one line each. */
const problems = (report: ContractReport) =>
  report.outcomes
    .filter((o) => o.status === 'failed' || o.status === 'warned' || (o.status === 'skipped' && o.skipCause === 'no-evidence'))
    .map((o) => `${o.operationId} ${o.check}: ${o.failures[0]?.message ?? o.skipReason}`);

const moving = LISTINGS[0]!.operationId;
/** The consistency figures of the listing whose data moves. */
const consistency = (report: ContractReport) => report.coverage?.find((c) => c.operationId === moving)?.consistency;

describe('conformant deployments whose data moves while the kit reads them', { timeout: 600_000 }, () => {
  // Not yet: a listing read page by page across two replicas in turn is torn (a record skipped or repeated where the
  // pages meet), and the lineage the rule judges by starts from that read (issue 48, open).
  it.todo('two replicas in turn, one a record behind: conformant, the staleness measured');
  it.todo('two replicas, each keep-alive connection pinned to one: conformant');

  it.each([1, 2])('seed %i: a search index refreshed every second: conformant, its lag measured', async (seed) => {
    const report = await runAgainst('index', seed, { refreshMs: 1_000 });
    expect(problems(report)).toEqual([]);
  });

  // Not yet: a read of the head that fits no window of the lineage (seen against an index refreshed every 5 s) makes
  // the rule stand aside, and two search checks then judge the older way (issue 48, open).
  it.todo('a search index refreshed every 5 s: conformant with the default --max-staleness');

  it.each([1, 2])('seed %i: a single server gaining an alert every 250 ms: conformant, no staleness', async (seed) => {
    const report = await runAgainst('single', seed);
    expect(problems(report)).toEqual([]);
    expect(consistency(report)).toMatchObject({ behindRecords: 0, pageStalenessMs: 0 });
    expect(consistency(report)!.versions).toBeGreaterThan(1);
  });
});

describe('broken deployments that look alike, while the data moves', { timeout: 600_000 }, () => {
  // Not yet NOT conformant every time: a search answered for the term before it, a search applied after paging
  // (the rule stands aside where the lineage breaks, and the older way calls them inconclusive; issue 48, open).
  it.todo('other-term and search-after-paging are NOT conformant, the finding naming the versions');

  it.each([['unfiltered-later-pages', 'page 2 and later of a search unfiltered']] as const)(
    '%s (%s) is NOT conformant, the finding naming the versions',
    async (shape, _what) => {
      const report = await runAgainst(shape, 1);
      expect(report.verdict).toBe('not conformant');
      const found = report.outcomes.flatMap((o) => o.failures).map((f) => f.message);
      expect(found.some((m) => /version/.test(m))).toBe(true);
    },
  );
});
