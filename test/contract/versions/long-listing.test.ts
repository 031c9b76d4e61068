import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../../src/contract/checks/index.ts';
import { consoleReport } from '../../../src/contract/reports/console-report.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, spec } from '../../helpers.ts';
import { LONG_LISTING_VARIANTS, longListing } from '../targets/long-listing.ts';

const run = (fetch: ReturnType<typeof longListing>, extra: Partial<Parameters<typeof runContract>[0]> = {}) =>
  runContract({ target: 'http://long.test', apiKey: KEY, document: spec.document, fetch, seed: 5, ...extra });

describe('a listing longer than --max-pages (1,000,037 alerts, made lazily)', () => {
  // A whole default run, CPU-bound: a loaded machine makes it several times longer than here.
  it('is conformant in a default run, every check evaluated, and the verdict says how much was read', async () => {
    let requests = 0;
    const target = longListing();
    const report = await run((request) => {
      requests += 1;
      return target(request);
    });
    const failures = report.outcomes.flatMap((o) => o.failures.map((f) => `${o.operationId} ${o.check}: ${f.message}`));
    expect(failures).toEqual([]);
    expect(report.verdict).toBe('conformant');
    expect(report.coverage?.find((c) => c.operationId === 'listAlerts')).toMatchObject({ read: 5_000, total: 1_000_037, complete: false });
    // What needs the whole listing is judged from the prefix, the end found and searches that fit.
    for (const check of ['page_past_end', 'total_count_header', 'explore_search', 'explore_metadata']) {
      expect(report.outcomes.find((o) => o.check === check && o.operationId === 'listAlerts')?.status, check).toBe('passed');
    }
    expect(requests).toBeLessThan(1_500);
    expect(consoleReport(report, { headerValues: [] }).split('\n').at(-1)).toMatch(
      /^conformant \(listAlerts: 5,000 of 1,000,037 records read in order, \d+ pages beyond up to the end\)$/,
    );
  }, 120_000);

  it.each(LONG_LISTING_VARIANTS.map((v) => [v.name, v] as const))('catches %s', async (_, variant) => {
    const target = longListing({ variant });
    // A check of every response judges what the reading of the listing sent: page_past_end reads it.
    const checks =
      ALL_CHECKS.find((c) => c.name === variant.caughtBy)?.kind === 'response' ? [variant.caughtBy, 'page_past_end'] : [variant.caughtBy];
    const report = await run(target, { checks });
    const caught = report.outcomes.find((o) => o.check === variant.caughtBy && o.operationId === 'listAlerts');
    expect(caught?.failures.some((f) => f.severity === variant.severity)).toBe(true);
    if (variant.severity === 'error') expect(report.verdict).toBe('not conformant');
    else {
      // An assumption broken: conformant by default, not under --strict.
      expect(report.verdict).toBe('conformant');
      expect((await run(target, { checks, strict: true })).verdict).toBe('not conformant');
    }
  });

  it('judges a listing of exactly --max-pages full pages to its end', async () => {
    const report = await run(longListing({ counts: { '/alert': 5_000 } }), {
      checks: ['page_past_end', 'total_count_header', 'page_size_conformance', 'pagination_consistency'],
    });
    expect(report.verdict).toBe('conformant');
    expect(report.coverage?.find((c) => c.operationId === 'listAlerts')).toMatchObject({ read: 5_000, total: 5_000 });
  });
});
