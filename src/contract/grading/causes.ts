// The cause first: when the same request gets answers no legitimate variation explains, what other checks
// found by comparing answers of that listing follows from it.
import type { Check } from '../model/check.ts';
import type { CheckOutcome } from '../types.ts';

/** The check whose errors say that the same request gets other answers. */
export const CAUSE = 'stable_order';

/**
 * `outcomes` with the findings that follow from an unstable listing marked so: on an operation where
 * stable_order found an error, every finding of another check that compares answers (not one that judges each
 * answer alone, and not one no change of answers can explain) follows from it.
 *
 * @example
 * const outcomes = underCause(checks, await judgeAgainIfChanged(rejudging, scenarios, probe));
 */
export function underCause(checks: readonly Check[], outcomes: readonly CheckOutcome[]): CheckOutcome[] {
  const unstable = new Set(
    outcomes.filter((o) => o.check === CAUSE && o.failures.some((f) => f.severity === 'error')).map((o) => o.operationId),
  );
  if (unstable.size === 0) return [...outcomes];
  const compares = (name: string) => {
    const check = checks.find((c) => c.name === name);
    return check?.kind === 'scenario' && check.judgesEachAnswer !== true;
  };
  return outcomes.map((o) =>
    o.check === CAUSE || !unstable.has(o.operationId) || !compares(o.check)
      ? o
      : { ...o, failures: o.failures.map((f) => (f.absolute ? f : { ...f, followsFrom: CAUSE })) },
  );
}

/**
 * The failed checks in the order a reader should meet them: those with a finding of their own first, then
 * those whose every finding follows from another's.
 *
 * @example
 * const { causes, following } = failedInOrder(outcomes); // { causes: ['stable_order'], following: ['link_header'] }
 */
export function failedInOrder(outcomes: readonly CheckOutcome[]): { causes: string[]; following: string[] } {
  const failed = outcomes.filter((o) => o.status === 'failed');
  const own = new Set(failed.filter((o) => o.failures.some((f) => f.followsFrom === undefined)).map((o) => o.check));
  const causes = [...new Set(failed.map((o) => o.check))].filter((check) => own.has(check));
  const following = [...new Set(failed.map((o) => o.check))].filter((check) => !own.has(check));
  return { causes: [...causes.filter((c) => c === CAUSE), ...causes.filter((c) => c !== CAUSE)], following };
}
