import { describe, expect, it } from 'vitest';
import { consoleReport } from '../../../src/contract/reports/console-report.ts';
import { alerts, problems, run } from './live-runs.ts';
import {
  divergentReplicas,
  emptyOrAll,
  editing,
  growing,
  liveTarget,
  overlappingPages,
  replicas,
  resolving,
  searchBlindCache,
  shuffledPages,
  sliding,
  still,
  stuckReplica,
} from '../targets/live-targets.ts';

// Whole contract runs in this process, each a few seconds of CPU (answers apart are read on for the default
// --max-staleness, 10 s, before they are a finding): a loaded machine makes them several times longer, so each may
// take up to two minutes before it counts as hung.
describe('data that lives while the kit reads it, told apart from broken answers', { timeout: 120_000 }, () => {
  it("a server editing one alert's updated_at every 25 requests is conformant", async () => {
    const report = await run(liveTarget(editing(25)));
    expect(problems(report)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('a server whose alerts are resolved and leave the listing from its middle, one every 3 requests, is conformant', async () => {
    // A record a read of the head skips between two it shows left the listing: versions before hold it, those after
    // do not (before the versions knew that, only the run's judging again when the first page changed kept it so).
    const report = await run(liveTarget(resolving(3)));
    expect(problems(report)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('a window moving on every 25 requests whose pages overlap by one is NOT conformant, by explore_pages', async () => {
    const report = await run(liveTarget(sliding(25), overlappingPages), ['explore_pages']);
    expect(report.verdict).toBe('not conformant');
    expect(alerts(report, 'explore_pages')?.status).toBe('failed');
  });

  it("a server gaining an alert every 2 requests, its Link's last page moving with it, passes link_header: a version gives its count", async () => {
    const report = await run(liveTarget(growing(2), { links: { lastOff: 0 } }), ['link_header']);
    expect(problems(report)).toEqual([]);
    expect(alerts(report, 'link_header')?.status).toBe('passed');
  });

  it("a server gaining an alert every 25 requests whose Link's last page is one too far fails link_header", async () => {
    const report = await run(liveTarget(growing(25), { links: { lastOff: 1 } }), ['link_header']);
    const outcome = alerts(report, 'link_header');
    // An assumption's warning: it fails the run under --strict.
    expect(outcome?.status).toBe('warned');
    // Named by the versions: the count page 2's Link implies is no admissible version's.
    expect(outcome?.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^Link rel="last" is wrong for page 2 of size 3: no version of the listing admissible for its time gives it \(\d+ admissible; the closest, the listing of \d+ records whose newest is .+, gives a count of \d+\)$/,
      ),
    ]);
  });

  it('a server shuffling each page on every request is NOT conformant, by stable_order', async () => {
    const report = await run(liveTarget(still, shuffledPages), ['stable_order']);
    expect(report.verdict).toBe('not conformant');
    expect(alerts(report, 'stable_order')?.status).toBe('failed');
  });

  it('a response cache that ignores search is NOT conformant: a term no record contains returns records, whatever else changed', async () => {
    const report = await run(searchBlindCache(liveTarget(still)), ['search_no_match']);
    expect(report.verdict).toBe('not conformant');
    expect(alerts(report, 'search_no_match')?.status).toBe('failed');
  });

  it('a server gaining alerts whose pages also overlap by one is NOT conformant, by pagination_consistency', async () => {
    const report = await run(liveTarget(growing(25), overlappingPages), ['pagination_consistency']);
    expect(report.verdict).toBe('not conformant');
    expect(alerts(report, 'pagination_consistency')?.status).toBe('failed');
  });

  it('two replicas in turn, one an alert behind, whose pages also overlap by one are never passed: an overlap of one is what versions a record apart show', async () => {
    const report = await run(liveTarget(replicas(25), overlappingPages), ['pagination_consistency']);
    // The still sensors, whose pages overlap too, fail it.
    expect(report.verdict).toBe('not conformant');
    // The alerts: a page one record on is a version one record newer, which the replica ahead may hold unseen by the
    // reads of the head; asked again, the replica behind answers that page as the version ahead gives it, so even one
    // version for all the answers compared cannot tell. What the versions cannot tell is inconclusive, never passed.
    const outcome = alerts(report, 'pagination_consistency');
    expect(outcome?.status).not.toBe('passed');
    if (outcome?.status === 'skipped') expect(outcome.skipReason).toMatch(/the versions of the listing could not tell/);
  });

  it('two replicas in turn that disagree in the middle of the listing are NOT conformant, by stable_order', async () => {
    const report = await run(liveTarget(divergentReplicas), ['stable_order']);
    expect(report.verdict).toBe('not conformant');
    const stable = alerts(report, 'stable_order');
    expect(stable?.failures.some((f) => /went back and forth between 2 answers/.test(f.message))).toBe(true);
  });

  it('answers alternating between no alerts and all of them are NOT conformant, by stable_order, and not called replicas', async () => {
    const report = await run(liveTarget(emptyOrAll), ['stable_order']);
    expect(report.verdict).toBe('not conformant');
    const stable = alerts(report, 'stable_order');
    expect(stable?.status).toBe('failed');
    expect(stable?.failures.some((f) => f.severity === 'error' && /went back and forth between 2 answers/.test(f.message))).toBe(true);
    expect(JSON.stringify(report)).not.toMatch(/as replicas behind a load balancer do/);
  });

  it('a replica one alert behind on data that stands still is NOT conformant, by stable_order: stuck, not lagging', async () => {
    const report = await run(liveTarget(stuckReplica()), ['stable_order']);
    expect(report.verdict).toBe('not conformant');
    const stable = alerts(report, 'stable_order');
    expect(stable?.failures.some((f) => f.severity === 'error' && /went back and forth between 2 answers/.test(f.message))).toBe(true);
    expect(JSON.stringify(report)).not.toMatch(/as replicas behind a load balancer do/);
  });

  it('a server shuffling each page: stable_order comes first, and what other checks found by comparing answers follows from it', async () => {
    const report = await run(liveTarget(still, shuffledPages));
    expect(report.verdict).toBe('not conformant');
    const text = consoleReport(report, { headerValues: [] });
    expect(text.split('\n').find((line) => line.startsWith('FAIL '))).toMatch(/^FAIL stable_order/);
    expect(report.reason).toMatch(/^1 check failed \(stable_order\)/);
    const others = report.outcomes.filter((o) => o.check !== 'stable_order' && o.status === 'failed');
    expect(others.length).toBeGreaterThan(0);
    for (const outcome of others)
      for (const f of outcome.failures) expect(f.followsFrom ?? (f.absolute ? 'absolute' : f.message)).toMatch(/stable_order|absolute/);
  });
});
