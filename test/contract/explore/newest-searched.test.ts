import { describe, expect, it } from 'vitest';
import { growing, liveTarget } from '../targets/live-targets.ts';
import { alerts, run } from '../versions/live-runs.ts';

/** How explore_search words what searching the newest record found. */
const NEWEST = /taken from \S+, the newest record at the listing's head, which arrived during the run/;

/** explore_search alone against `fetch`, under --strict. */
const exploreSearch = (fetch: (request: Request) => Promise<Response>, maxStalenessMs: number) =>
  run(fetch, ['explore_search'], { examples: 10, strict: true, maxStalenessMs });

describe('explore_search searches for a record that arrived during the run', () => {
  it('finds a search index that never takes in new records, whatever terms the run drew from the listing', async () => {
    const report = await exploreSearch(liveTarget(growing(5), { indexed: () => 1 }), 300);
    const outcome = alerts(report, 'explore_search');
    expect(outcome?.status).toBe('failed');
    const finding = outcome?.failures.find((f) => NEWEST.test(f.message));
    // The search found nothing; the version that gives that is named, and one newer was read before it was sent.
    expect(finding?.actual).toBe('[]');
    expect(finding?.expected).toMatch(/^1 record: \S+$/);
    expect(finding?.message).toMatch(/only the listing of \d+ records whose newest is \S+ gives it|no version of the listing/);
  });

  it('passes an index a few requests behind its records, which catches up when asked again', async () => {
    const report = await exploreSearch(liveTarget(growing(5), { indexed: (t) => Math.max(1, t - 3) }), 10_000);
    expect(alerts(report, 'explore_search')?.status).toBe('passed');
    // The search asked again until it caught up: the lag is measured.
    expect(report.coverage?.[0]?.consistency?.searchStalenessMs).toBeGreaterThan(0);
  });
});
