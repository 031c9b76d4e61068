// A check judged in two parts of a run (as planned, then on more of what the plan trimmed) has one outcome.
import type { CheckOutcome } from '../types.ts';

/**
 * `planned` with each of `more` joined into the outcome of the same check and operation: the findings of both,
 * and what either left unobserved. A part skipped adds nothing; a planned outcome skipped takes the part that
 * judged. Outcomes in `more` with no planned one are left out (an extension runs planned checks only).
 *
 * @example
 * joinOutcomes(planned, extended); // explore_pages: the planned run's findings, then the extension's
 */
export function joinOutcomes(planned: readonly CheckOutcome[], more: readonly CheckOutcome[]): CheckOutcome[] {
  return planned.map((outcome) => {
    const part = more.find((o) => o.check === outcome.check && o.operationId === outcome.operationId);
    if (!part || part.status === 'skipped') return outcome;
    if (outcome.status === 'skipped') return part;
    const notObserved = [...(outcome.notObserved ?? []), ...(part.notObserved ?? [])];
    return {
      ...outcome,
      failures: [...outcome.failures, ...part.failures],
      ...(notObserved.length > 0 ? { notObserved } : {}),
    };
  });
}
