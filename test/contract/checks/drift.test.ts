import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../../src/contract/checks/index.ts';
import type { FetchLike } from '../../../src/contract/types.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, runInProcess, spec } from '../../helpers.ts';
import { FAULTS as LISTED, brokenMock, type Fault } from '../targets/broken-mocks.ts';
import { UNLISTED_FAULTS } from '../targets/unlisted-faults.ts';

const FAULTS: readonly Fault[] = [...LISTED, ...UNLISTED_FAULTS];

// A dataset of 230 alerts makes the listing span pages of 100 and leaves a short last page.
const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 230, sensors: 57 } } });
// A fixed seed: a fault caught by generated requests is caught on every run of the suite.
const run = (fetch: FetchLike, strict = true, options: Fault['options'] = {}) => runInProcess(fetch, { strict, seed: 9, ...options });

/**
 * A fault is run with its catcher alone (what --checks does), plus, for a check that inspects every
 * response, two probes that send valid and invalid requests for it to inspect.
 */
function checksFor(fault: Fault): string[] {
  const check = ALL_CHECKS.find((c) => c.name === fault.caughtBy);
  return check?.kind === 'response' ? [fault.caughtBy, 'negative_data_rejection', 'page_size_conformance'] : [fault.caughtBy];
}

describe('the contract kit catches drift', () => {
  it('passes the correct mock with zero failures and zero warnings under --strict', async () => {
    const report = await run((request) => app.fetch(request));
    const failures = report.outcomes.flatMap((o) => o.failures.map((f) => `${o.operationId} ${o.check}: ${f.message}`));
    expect(failures).toEqual([]);
    expect(report.verdict).toBe('conformant');
    expect(report.summary.failed).toBe(0);
    expect(report.summary.warned).toBe(0);
    // Every pair of parameter classes was sent and judged, on every listing.
    expect(report.coverage?.map((c) => [c.operationId, c.pairs?.covered === c.pairs?.total])).toEqual(
      LISTINGS.map((op) => [op.operationId, true]),
    );
    expect(report.coverage?.slice(0, 2).map((c) => c.pairs)).toEqual([
      { covered: 250, total: 250 },
      { covered: 250, total: 250 },
    ]);
    // Every check was evaluated: only the opt-in latency budget is skipped, as not applicable.
    expect(report.outcomes.filter((o) => o.status === 'skipped').map((o) => [o.check, o.skipCause])).toEqual(
      LISTINGS.map(() => ['max_response_time', 'not-applicable']),
    );
  });

  it('proves every check in the registry: each is the named catcher of at least one fault', () => {
    const unproven = ALL_CHECKS.map((c) => c.name).filter((name) => !FAULTS.some((f) => f.caughtBy === name));
    expect(unproven).toEqual([]);
  });

  it.each(FAULTS.map((fault) => [fault.name, fault] as const))('catches %s', async (_, fault) => {
    const report = await run(brokenMock(app, fault), true, { checks: checksFor(fault), ...fault.options });
    expect(report.verdict).toBe('not conformant');
    const caught = report.outcomes.filter((o) => o.check === fault.caughtBy && o.status === 'failed');
    expect(caught.length, `${fault.caughtBy} did not fail`).toBeGreaterThan(0);
    const findings = caught.flatMap((o) => o.failures);
    expect(findings.some((f) => f.severity === fault.severity)).toBe(true);
    if (fault.severity === 'warning') {
      // An assumption broken: the run passes without --strict as far as this fault goes.
      const lenient = await run(brokenMock(app, fault), false, { checks: checksFor(fault), ...fault.options });
      expect(lenient.outcomes.filter((o) => o.check === fault.caughtBy).every((o) => o.status !== 'failed')).toBe(true);
    }
  });
});
