import { describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, spec } from '../../helpers.ts';
import { alerts, problems, run } from './live-runs.ts';
import { growing, liveTarget, overlappingPages, replicas, sliding, still } from '../targets/live-targets.ts';

// Whole contract runs in this process, each a few seconds of CPU (the replicas' re-run about 12): a loaded machine
// makes them several times longer, so each may take up to two minutes before it counts as hung.
describe('data that lives while the kit reads it, told apart from broken answers: whole runs, every check', { timeout: 120_000 }, () => {
  it('a still target is conformant (the baseline of the targets below)', async () => {
    const report = await run(liveTarget(still));
    expect(problems(report)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('a server gaining an alert every 25 requests is conformant: each answer a version the run saw', async () => {
    let recorded = 0;
    const report = await runContract({
      target: 'http://live.test',
      apiKey: KEY,
      document: spec.document,
      fetch: liveTarget(growing(25)),
      seed: 21,
      examples: 40,
      record: () => (recorded += 1),
    });
    expect(problems(report)).toEqual([]);
    expect(report.verdict).toBe('conformant');
    // Every request is recorded, the rechecks' and re-runs' included (as the HAR would hold them).
    expect(recorded).toBe(report.summary.requests);
  });

  it('a window of alerts moving on by one every 2 requests (serve --live, far faster) is never NOT conformant: what a version explains passes, what the run could not judge says the data changed', async () => {
    const report = await run(liveTarget(sliding(2)));
    expect(['conformant', 'inconclusive']).toContain(report.verdict);
    const unjudged = report.outcomes.filter((o) => o.status === 'skipped' && o.skipCause === 'no-evidence');
    // Only the explorations compare an answer with a model of the listing; each says why it could not judge.
    expect(unjudged.every((o) => o.check.startsWith('explore_') && /data changed during the run/.test(o.skipReason!))).toBe(true);
    expect(report.outcomes.filter((o) => o.status === 'failed')).toEqual([]);
    expect(alerts(report, 'pagination_consistency')?.status).toBe('passed');
  });

  it('a window moving on every 2 requests whose pages overlap by one is never conformant: each page alone is a version one record on, and the listing never stands still for the explorations to judge it on one version', async () => {
    const report = await run(liveTarget(sliding(2), overlappingPages), ['explore_pages', 'pagination_consistency']);
    expect(report.verdict).not.toBe('conformant');
    // Too fast for one version, the listing read before and after never agrees: the overlap is never passed.
    expect(alerts(report, 'pagination_consistency')?.status).not.toBe('passed');
  });

  it('two replicas in turn, one an alert behind, while alerts arrive, are conformant: each answer a version admissible for its time', async () => {
    const report = await run(liveTarget(replicas(25)));
    expect(problems(report)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('a still server serving a page one record off every other request is NOT conformant, by stable_order: answers alternating that no movement explains', async () => {
    const sometimesOff = {
      page: (records: readonly Record<string, unknown>[], page: number, size: number, n: number) =>
        records.slice((page - 1) * size + (n % 2), page * size + (n % 2)),
    };
    const report = await run(liveTarget(still, sometimesOff), ['explore_pages', 'stable_order']);
    expect(report.verdict).toBe('not conformant');
    // The head over time: the same answers back and forth for --max-staleness, with nothing arriving.
    const stable = alerts(report, 'stable_order');
    expect(stable?.status).toBe('failed');
    expect(stable?.failures.some((f) => /went back and forth between 2 answers/.test(f.message))).toBe(true);
    // explore_pages, judged as the requests fall, fails too in most runs: a page one record off may also pass as the
    // version a record apart that answers alternating look like, until the head over time tells them apart.
    expect(alerts(report, 'explore_pages')?.status).not.toBe('skipped');
  });

  // Issue 38: replicas in turn, one behind, while data arrives, for every check and ten seeds (each seed draws other
  // generated requests, so other requests land on the lagging replica).
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    it(`two replicas in turn, one an alert behind, while alerts arrive, are conformant for seed ${seed}, every check evaluated`, async () => {
      const report = await runContract({
        target: 'http://live.test',
        apiKey: KEY,
        document: spec.document,
        fetch: liveTarget(replicas(25)),
        seed,
      });
      expect(problems(report)).toEqual([]);
      expect(report.verdict).toBe('conformant');
    });
  }

  it('a search index that never takes in new alerts is NOT conformant under --strict, by explore_search', async () => {
    const report = await runContract({
      target: 'http://live.test',
      apiKey: KEY,
      document: spec.document,
      seed: 21,
      examples: 40,
      strict: true,
      checks: ['explore_search'],
      fetch: liveTarget(growing(25), { indexed: () => 1 }),
    });
    expect(report.verdict).toBe('not conformant');
    expect(alerts(report, 'explore_search')?.status).toBe('failed');
    // The finding names the versions: the index answers as one older than the run had seen ("no version of the
    // listing admissible ...", or, when the rule found the one version that gives it, "only the listing of 200
    // records whose newest is ... gives it").
    expect(alerts(report, 'explore_search')?.failures[0]?.message).toMatch(
      /version of the listing|only the listing of \d+ records whose newest is \S+ gives it/,
    );
  });
});
