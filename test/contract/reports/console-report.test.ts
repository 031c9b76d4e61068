import { describe, expect, it } from 'vitest';
import { grade } from '../../../src/contract/grading/grade.ts';
import { consoleReport } from '../../../src/contract/reports/console-report.ts';
import type { CheckOutcome, Exchange } from '../../../src/contract/types.ts';

const outcome = (operationId: string, status: CheckOutcome['status'], extra: Partial<CheckOutcome> = {}): CheckOutcome => ({
  check: 'stable_order',
  operationId,
  status,
  failures: [],
  description: 'the same request twice gives the same records in the same order',
  ...extra,
});
const report = (outcomes: CheckOutcome[]) =>
  consoleReport(grade({ target: 'http://t.test', strict: false, outcomes, stats: { sent: 3, retried: 0 }, seed: 1, examples: 1 }), {
    headerValues: [],
  });
const statusLine = (text: string) => text.split('\n').find((line) => /^(PASS|PART|FAIL|WARN|SKIP) /.test(line));

describe('the console report', () => {
  it('says PASS with no qualifier only when every operation was evaluated', () => {
    expect(statusLine(report([outcome('listAlerts', 'passed'), outcome('listSensors', 'passed')]))).toBe(
      'PASS stable_order: the same request twice gives the same records in the same order',
    );
  });

  it('says PART, never PASS, when some operations were skipped, how many were evaluated, and why', () => {
    const text = report([
      outcome('listAlerts', 'skipped', { skipCause: 'no-evidence', skipReason: 'the same request sent twice got 500' }),
      outcome('listSensors', 'passed'),
    ]);
    expect(statusLine(text)).toBe(
      'PART stable_order (1 of 2 operations; 1 SKIP: the same request sent twice got 500): the same request twice gives the same records in the same order',
    );
    expect(text.split('\n').at(-1)).toMatch(/^INCONCLUSIVE: /);
  });

  it('is SKIP when no operation was evaluated', () => {
    const skipped = outcome('listAlerts', 'skipped', { skipCause: 'not-applicable', skipReason: 'opt-in' });
    expect(statusLine(report([skipped, { ...skipped, operationId: 'listSensors' }]))).toMatch(/^SKIP stable_order: /);
  });

  it('ends with the verdict line', () => {
    expect(
      report([outcome('listAlerts', 'passed')])
        .split('\n')
        .at(-1),
    ).toBe('conformant');
  });

  it('keeps the verdict line within 200 characters, the whole reason above it', () => {
    const failing = (check: string) =>
      outcome('listAlerts', 'failed', { check, failures: [{ check, operationId: 'listAlerts', severity: 'error', message: 'broken' }] });
    const names = Array.from({ length: 30 }, (_, i) => `a_check_with_a_long_name_${i}`);
    const lines = report(names.map(failing)).split('\n');
    const verdict = lines.at(-1)!;
    expect(verdict.length).toBeLessThanOrEqual(200);
    expect(verdict).toMatch(/^NOT conformant: 30 checks failed \(a_check_with_a_long_name_0, .*… \(whole reason above\)$/);
    expect(lines.at(-2)).toMatch(/^why: 30 checks failed \(.*a_check_with_a_long_name_29\)$/);
  });

  it('prints the timing section: the limit as it moved, latency per kind, the requests sent again alone', () => {
    const timing = {
      limit: {
        ceiling: 8,
        start: 2,
        end: 3,
        lowest: 1,
        highest: 8,
        changes: [{ from: 8, to: 4, why: 'a request timed out or was reset with 8 in flight' }],
        changeCount: 9,
      },
      kinds: [
        {
          kind: '/alert search',
          alone: { count: 40, p50Ms: 1_800, p95Ms: 2_100 },
          underLoad: { count: 9, p50Ms: 6_000, p95Ms: 9_900 },
          failed: 3,
          limit: { end: 2, lowest: 1, highest: 4, queuedAt: 3 },
        },
        { kind: '/alert page', alone: { count: 5, p50Ms: 30, p95Ms: 60 }, failed: 0, limit: { end: 8, lowest: 2, highest: 8 } },
      ],
      sentAgainAlone: { answered: 2, failedAlone: 1, stillBusy: 1, notSent: 0, cap: 20, probes: 5 },
    };
    const graded = grade({
      target: 'http://t.test',
      strict: false,
      outcomes: [outcome('listAlerts', 'passed')],
      stats: { sent: 3, retried: 0 },
      seed: 1,
      examples: 1,
      timing,
    });
    const text = consoleReport(graded, { headerValues: [] });
    expect(text).toContain(
      'timing: 1 to 8 requests in flight (ceiling 8, 3 at the end); lowered 1 time, first as a request timed out or was reset with 8 in flight',
    );
    expect(text).toContain(
      '  /alert search: alone p50 1.8 s, p95 2.1 s (40); under load p50 6.0 s, p95 9.9 s (9); 3 timed out or reset; own limit 1 to 4, 2 at the end, held below 3\n',
    );
    // A kind's own limit that climbed and stayed is no news.
    expect(text).toContain('  /alert page: alone p50 30 ms, p95 60 ms (5)\n');
    expect(text).toContain(
      '  failed under load (no response or a 5xx), sent again alone: 2 answered alone, 1 failed alone too (1 with the target still busy: no probe answered at its unloaded speed); 5 probes sent first',
    );
  });

  it('says on the reproduce line how many were in flight, and for a request sent again alone what the first sending got', () => {
    const request = { method: 'GET', url: 'http://t.test/alert?search=x', headers: {} };
    const failing = (exchange: Exchange) =>
      outcome('listAlerts', 'failed', {
        check: 'response_received',
        failures: [{ check: 'response_received', operationId: 'listAlerts', severity: 'error', message: 'no usable response', exchange }],
      });
    const reproduce = (exchange: Exchange) =>
      report([failing(exchange)])
        .split('\n')
        .find((l) => l.includes('reproduce:'));
    const under = { operationId: 'listAlerts', request, error: 'no complete response within 10000 ms', inFlight: 6 };
    expect(reproduce(under)).toMatch(/'http:\/\/t\.test\/alert\?search=x' {2}# sent with 6 in flight$/);
    expect(reproduce({ ...under, inFlight: 2 })).toMatch(/search=x'$/);
    expect(reproduce({ ...under, inFlight: 1, firstUnderLoad: under })).toMatch(
      /search=x' {2}# sent alone; first with 6 in flight: no complete response within 10000 ms$/,
    );
  });

  it('says PART, with what was not observable, for a check that saw part of its claim', () => {
    const text = report([
      outcome('listAlerts', 'passed', { notObserved: ['the tiebreak by id ascending: no two records read share created_at'] }),
    ]);
    expect(statusLine(text)).toMatch(/^PART stable_order: /);
    expect(text).toContain('  listAlerts: not observable here: the tiebreak by id ascending: no two records read share created_at');
    expect(text.split('\n').at(-1)).toBe('conformant');
  });
});
