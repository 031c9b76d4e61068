// A whole run against data that never stands still: slow by nature (every re-run and recheck, and the searches
// looked at again within their budget, are spent before the verdict).
import { describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, spec } from '../../helpers.ts';
import { growing, liveTarget } from '../targets/live-targets.ts';

const run = (fetch: (r: Request) => Response | Promise<Response>, extra: Partial<Parameters<typeof runContract>[0]> = {}) =>
  runContract({ target: 'http://target.test', apiKey: KEY, document: spec.document, fetch, seed: 3, examples: 20, ...extra });

describe('verdicts of a run', () => {
  it('data that changes with every request, so no re-run sees it still, is inconclusive, not violations', {
    timeout: 120_000,
  }, async () => {
    // An alert arrives with every request, and every 400 requests the newest 400 go again: it never stands still.
    const report = await run(
      liveTarget((path, _t, n) => growing(1)(path, n % 400, n)),
      {
        checks: ['pagination_consistency', 'explore_pages', 'explore_search'],
        rereadIntervalMs: 1,
      },
    );
    expect(report.verdict).toBe('inconclusive');
    expect(report.summary.failed).toBe(0);
    const changed = report.outcomes.filter((o) => o.skipReason?.startsWith('data changed during the run'));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed[0]!.skipReason).toContain('--seed 3');
  });
});
