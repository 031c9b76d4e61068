// Issue 49, item 5: the kit's memory at any listing size. The built CLI, with its default options, against a
// deployment of 250,000 alerts with arrivals through the run, in a child process of its own (so the target's
// records are not counted); the CLI's peak RSS, read from outside (GNU time or VmHWM), is held under 400 MB and
// printed, and the report's own figure (timing.peakRssMb) is checked against it. Issue 48, item 6: the same run is
// conformant within the default --max-duration (a search there takes a second, one at a time, while alerts arrive)
// whenever its plan found it fits (on a machine whose CPU others take, a search there can take several seconds, and
// the plan then says the run needs longer than it has).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY } from '../../helpers.ts';
import { runContractCli } from '../targets/hostile-servers.ts';
import { type Deployment, startDeployment } from '../targets/moving-deployment.ts';

const GOAL_MB = 400;
const dir = mkdtempSync(join(tmpdir(), 'tempmon-memory-'));
const running: Deployment[] = [];
afterAll(() => {
  for (const deployment of running) deployment.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the kit in bounded memory', { timeout: 900_000 }, () => {
  it(`against 250,000 alerts with arrivals: peak RSS under ${GOAL_MB} MB`, async () => {
    // An alert arrives every 100 ms for 300 s (the default --max-duration): the listing moves through the run.
    const deployment = await startDeployment('single', { records: 250_000, arriving: 3_000, everyMs: 100 });
    running.push(deployment);
    const json = join(dir, 'report.json');
    const run = await runContractCli(['--target', deployment.url, '--json', json], {
      env: { TEMPMON_API_KEY: KEY },
      measureRss: true,
      killAfterMs: 420_000,
    }).finally(() => deployment.stop());
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      verdict: string;
      timing: { peakRssMb: number };
      outcomes: { check: string; operationId: string; status: string; skipReason?: string; failures: { message: string }[] }[];
      plan: { why?: string };
    };
    // The plan's own word that the run cannot fit (a search timed at the start takes that long here).
    const fits = !report.plan.why?.includes('the run still needs');
    // What is not passed, with why: the opt-in checks skip on a default run.
    const notPassed = report.outcomes
      .filter((o) => o.status !== 'passed')
      .map((o) => `${o.operationId} ${o.check} ${o.status}${o.skipReason ? ` (${o.skipReason})` : ''}`);
    console.info(
      `250,000 alerts with arrivals: peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB (${run.rssSource}), the report's ${report.timing.peakRssMb} MB; ${run.seconds.toFixed(0)} s, ${report.verdict}${notPassed.length > 0 ? ` (not passed: ${notPassed.join(', ')})` : ''}; plan: ${report.plan.why ?? 'as asked'}`,
    );
    // Why, when it is not conformant: the run's findings, the first of each check.
    for (const o of report.outcomes.filter((x) => x.failures.length > 0)) console.info(`${o.check}: ${o.failures[0]!.message}`);
    expect(run.signal).toBeNull();
    // Where the plan found the run cannot fit, the verdict is printed, not asserted: on a target several times slower
    // than this one is made to be, the kit still finds what its own queueing caused (docs/contract.md, "Live data").
    if (fits) {
      expect(report.verdict, notPassed.join('; ')).toBe('conformant');
      expect(run.status).toBe(0);
    } else console.warn(`the plan found the run cannot fit its --max-duration here: verdict ${report.verdict}, not asserted`);
    expect(run.stdout).toContain(`peak RSS ${report.timing.peakRssMb} MB`);
    expect(report.timing.peakRssMb).toBeLessThan(GOAL_MB);
    if (run.peakRssMb === undefined) console.warn(`peak RSS from outside not asserted: ${run.rssSource}`);
    else {
      // Read from outside, the peak takes in the last report written too: the report's figure is a little less.
      expect(report.timing.peakRssMb).toBeLessThanOrEqual(Math.ceil(run.peakRssMb));
      expect(run.peakRssMb, `peak RSS, by ${run.rssSource}`).toBeLessThan(GOAL_MB);
    }
  });
});
