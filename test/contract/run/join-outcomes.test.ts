import { describe, expect, it } from 'vitest';
import { joinOutcomes } from '../../../src/contract/run/join-outcomes.ts';
import type { CheckOutcome, Failure } from '../../../src/contract/types.ts';

const outcome = (check: string, status: CheckOutcome['status'], failures: string[] = [], notObserved?: string[]): CheckOutcome => ({
  check,
  operationId: 'listAlerts',
  status,
  description: check,
  failures: failures.map((message) => ({ check, operationId: 'listAlerts', severity: 'error', message }) as Failure),
  ...(notObserved ? { notObserved } : {}),
});

describe('a check judged as planned and then on more of the plan', () => {
  it("has one outcome with the findings of both, and what either left unobserved, in the plan's order", () => {
    const planned = [
      outcome('explore_pages', 'passed', ['a']),
      outcome('stable_order', 'passed'),
      outcome('explore_search', 'passed', [], ['x']),
    ];
    const more = [outcome('explore_search', 'passed', ['b'], ['y']), outcome('explore_pages', 'passed', ['c'])];
    const joined = joinOutcomes(planned, more);
    expect(joined.map((o) => o.check)).toEqual(['explore_pages', 'stable_order', 'explore_search']);
    expect(joined[0]!.failures.map((f) => f.message)).toEqual(['a', 'c']);
    expect(joined[1]).toBe(planned[1]);
    expect(joined[2]).toMatchObject({ notObserved: ['x', 'y'] });
    expect(joined[2]!.failures.map((f) => f.message)).toEqual(['b']);
  });

  it('a part skipped adds nothing; a planned outcome skipped takes the part that judged', () => {
    const planned = [outcome('explore_pages', 'passed', ['a']), outcome('explore_search', 'skipped')];
    const joined = joinOutcomes(planned, [outcome('explore_pages', 'skipped'), outcome('explore_search', 'passed', ['b'])]);
    expect(joined[0]).toBe(planned[0]);
    expect(joined[1]!.status).toBe('passed');
    expect(joined[1]!.failures.map((f) => f.message)).toEqual(['b']);
  });
});
