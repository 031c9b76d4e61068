// Findings of the versions rule judged again once the run has seen all it will of the listing.
import type { CheckOutcome } from '../types.ts';

/**
 * Each outcome with its findings of the versions rule judged again (see Failure.rejudge): one that a version
 * explains now (a staleness measured later in the run, a version read since) is dropped.
 *
 * @example
 * const outcomes = await rejudged(await scenariosOf(scope, run));
 */
export async function rejudged(outcomes: readonly CheckOutcome[]): Promise<CheckOutcome[]> {
  const judged: CheckOutcome[] = [];
  for (const outcome of outcomes) {
    if (!outcome.failures.some((f) => f.rejudge)) {
      judged.push(outcome);
      continue;
    }
    const kept = [];
    for (const failure of outcome.failures) {
      const stands = failure.rejudge ? await failure.rejudge() : true;
      // The rule cannot tell now: the finding goes on without it, to the older mechanisms (judged again at one
      // moment), with why, for the reason it gives if it ends inconclusive.
      if (typeof stands === 'object') {
        const { rejudge: _, ...plain } = failure;
        kept.push({ ...plain, unplaced: stands.unknown });
      } else if (stands) kept.push(failure);
    }
    judged.push({ ...outcome, failures: kept });
  }
  return judged;
}
