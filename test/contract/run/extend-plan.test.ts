import { describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { EXTEND_UNTIL } from '../../../src/contract/run/extend-plan.ts';
import { consoleReport } from '../../../src/contract/reports/console-report.ts';
import { createApp } from '../../../src/server/create-app.ts';
import type { Exchange } from '../../../src/contract/types.ts';
import { KEY, spec } from '../../helpers.ts';

const app = createApp({ spec, dataset: { seed: 5, counts: { alerts: 120, sensors: 40 } } });
/** Searches take 150 ms here, pages none: a plan priced on searches one at a time trims, and the run has time left. */
const slowSearches = async (request: Request) => {
  if (new URL(request.url).searchParams.has('search')) await new Promise((r) => setTimeout(r, 150));
  return app.fetch(request);
};

describe('a trimmed plan judges more in the time its checks left', () => {
  it('judges the next covering requests and special terms once the planned checks end, within the budget, and says so', async () => {
    const maxDurationMs = 12_000;
    const errors: string[] = [];
    let first: number | undefined;
    const record = (exchange: Exchange) => {
      first ??= Date.parse(exchange.startedDateTime!);
      if (exchange.error) errors.push(exchange.error);
    };
    const report = await runContract({
      target: 'http://target.test',
      apiKey: KEY,
      document: spec.document,
      fetch: slowSearches,
      seed: 3,
      maxDurationMs,
      record,
    });
    // From the first request, as --max-duration counts (loading the validator before it is the kit's own cost).
    const took = Date.now() - first!;
    const plan = report.plan!;
    const trimmedTo = Number(/covering set \d+ -> (\d+)/.exec(plan.why ?? '')?.[1]);
    expect(trimmedTo, plan.why).toBeGreaterThan(0);
    expect(plan.extended, JSON.stringify(plan)).toBeDefined();
    expect(plan.extended!.covering).toBeGreaterThan(0);
    // What the report says was used is all that was judged: its flags replay the run.
    expect(plan.covering.used).toBe(trimmedTo + plan.extended!.covering);
    expect(plan.covering.used).toBeLessThanOrEqual(plan.covering.asked);
    expect(consoleReport(report, { headerValues: [] })).toContain(
      `judged in the time left: covering set ${trimmedTo} -> ${plan.covering.used}`,
    );
    // Nothing was cut by the deadline (no request of the run stopped by it): the extension stops short of it.
    expect(report.verdict, consoleReport(report, { headerValues: [] })).toBe('conformant');
    expect(report.outcomes.filter((o) => o.skipReason?.includes('--max-duration'))).toEqual([]);
    expect(errors).toEqual([]);
    console.info(
      `extension: covering ${trimmedTo} -> ${plan.covering.used}, special terms -> ${plan.specialTerms.used}, ${Math.round(took)} ms of ${maxDurationMs} (cutoff ${EXTEND_UNTIL})`,
    );
  }, 30_000);

  it('does nothing when the plan was not trimmed', async () => {
    const report = await runContract({
      target: 'http://target.test',
      apiKey: KEY,
      document: spec.document,
      fetch: (r) => app.fetch(r),
      seed: 3,
      examples: 5,
    });
    expect(report.plan?.why).toBeUndefined();
    expect(report.plan?.extended).toBeUndefined();
  }, 30_000);
});
