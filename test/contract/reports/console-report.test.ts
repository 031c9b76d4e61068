import { describe, expect, it } from 'vitest';
import { grade } from '../../../src/contract/grading/grade.ts';
import { consoleReport } from '../../../src/contract/reports/console-report.ts';
import type { CheckOutcome } from '../../../src/contract/types.ts';

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
const statusLine = (text: string) => text.split('\n').find((line) => /^(PASS|FAIL|WARN|SKIP) /.test(line));

describe('the console report', () => {
  it('says PASS with no qualifier only when every operation was evaluated', () => {
    expect(statusLine(report([outcome('listAlerts', 'passed'), outcome('listSensors', 'passed')]))).toBe(
      'PASS stable_order: the same request twice gives the same records in the same order',
    );
  });

  it('says how many operations a PASS stands for when some were skipped, and why', () => {
    const text = report([
      outcome('listAlerts', 'skipped', { skipCause: 'no-evidence', skipReason: 'the same request sent twice got 500' }),
      outcome('listSensors', 'passed'),
    ]);
    expect(statusLine(text)).toBe(
      'PASS stable_order (1 of 2 operations; 1 SKIP: the same request sent twice got 500): the same request twice gives the same records in the same order',
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
});
