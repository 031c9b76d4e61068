// A whole run against data that never stands still: slow by nature (every re-run and recheck, and the searches
// looked at again within their budget, are spent before the verdict).
import { describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, spec } from '../../helpers.ts';
import { growing, liveTarget } from '../targets/live-targets.ts';

const run = (fetch: (r: Request) => Response | Promise<Response>, extra: Partial<Parameters<typeof runContract>[0]> = {}) =>
  runContract({ target: 'http://target.test', apiKey: KEY, document: spec.document, fetch, seed: 3, examples: 20, ...extra });

describe('verdicts of a run', () => {
  it('data that changes with every request, its newest alerts taken away every 400 requests, is never a violation: each answer a version the run saw, or inconclusive with the seed', {
    timeout: 120_000,
  }, async () => {
    // An alert arrives with every request, and every 400 requests the newest 400 go again: it never stands still.
    const report = await run(
      liveTarget((path, _t, n) => growing(1)(path, n % 400, n)),
      {
        checks: ['pagination_consistency', 'explore_pages', 'explore_search'],
      },
    );
    expect(report.summary.failed).toBe(0);
    // Answers the versions rule explains pass (records only arrived while they were read); once the newest were taken
    // away the rule cannot tell, and what a check compared then is inconclusive. Which comes first is the timing's.
    expect(['conformant', 'inconclusive']).toContain(report.verdict);
    const changed = report.outcomes.filter((o) => o.skipReason?.startsWith('data changed during the run'));
    if (report.verdict === 'inconclusive') {
      expect(changed.length).toBeGreaterThan(0);
      expect(changed[0]!.skipReason).toContain('--seed 3');
      // And what the versions lacked to judge it: the newest taken away is no window of the listing as read.
      expect(changed.some((o) => /the versions of the listing could not tell: .+; run again/.test(o.skipReason!))).toBe(true);
    } else expect(changed).toEqual([]);
  });
});
