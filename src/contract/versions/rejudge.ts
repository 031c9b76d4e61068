// Findings of the versions rule judged again once the run has seen all it will of the listing.
import type { CheckOutcome } from '../types.ts';

/**
 * Each outcome with its findings of the versions rule judged again (see Failure.rejudge): one that a version
 * explains now (a staleness measured later in the run, a version read since) is dropped; one the rule cannot tell
 * carries why (Failure.unplaced).
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
      if (stands === true || stands === false) {
        if (stands) kept.push(failure);
        continue;
      }
      // The rule cannot tell now: why goes with the finding (see settled), or it stands in words naming the versions.
      const { rejudge: _, ...plain } = failure;
      kept.push(
        'unknown' in stands ? { ...plain, unplaced: stands.unknown } : { ...failure, message: `${failure.message}: ${stands.named}` },
      );
    }
    judged.push({ ...outcome, failures: kept });
  }
  return judged;
}
