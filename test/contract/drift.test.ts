import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run-contract.ts';
import { createApp } from '../../src/server/create-app.ts';
import { KEY, spec } from '../helpers.ts';
import { FAULTS, brokenMock } from './broken-mocks.ts';

// A dataset of 230 alerts makes the listing span pages of 100 and leaves a short last page.
const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 230, sensors: 57 } } });
const run = (fetch: Parameters<typeof runContract>[0]['fetch'], strict = true) =>
  runContract({ target: 'http://target.test', apiKey: KEY, document: spec.document, fetch, strict, seed: 9 });

describe('the contract kit catches drift', () => {
  it('passes the correct mock with zero failures and zero warnings under --strict', async () => {
    const report = await run((request) => app.fetch(request));
    const failures = report.outcomes.flatMap((o) => o.failures.map((f) => `${o.operationId} ${o.check}: ${f.message}`));
    expect(failures).toEqual([]);
    expect(report.conformant).toBe(true);
    expect(report.summary.failed).toBe(0);
    expect(report.summary.warned).toBe(0);
    // Only the opt-in latency budget is skipped.
    expect(report.outcomes.filter((o) => o.status === 'skipped').map((o) => o.check)).toEqual(['max_response_time', 'max_response_time']);
  });

  it('has at least twelve distinct faults to prove it', () => {
    expect(new Set(FAULTS.map((f) => f.name)).size).toBeGreaterThanOrEqual(12);
    expect(FAULTS.filter((f) => f.severity === 'error').length).toBeGreaterThanOrEqual(12);
  });

  it.each(FAULTS.map((fault) => [fault.name, fault] as const))('catches %s', async (_, fault) => {
    const report = await run(brokenMock(app, fault));
    expect(report.conformant).toBe(false);
    const caught = report.outcomes.filter((o) => o.check === fault.caughtBy && o.status === 'failed');
    expect(caught.map((o) => o.operationId).length, `${fault.caughtBy} did not fail`).toBeGreaterThan(0);
    const findings = caught.flatMap((o) => o.failures);
    expect(findings.some((f) => f.severity === fault.severity)).toBe(true);
    if (fault.severity === 'warning') {
      // An assumption broken: the run passes without --strict as far as this fault goes.
      const lenient = await run(brokenMock(app, fault), false);
      expect(lenient.outcomes.filter((o) => o.check === fault.caughtBy).every((o) => o.status !== 'failed')).toBe(true);
    }
  });
});
