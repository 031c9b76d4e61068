// A check that gave no verdict: not applicable here, or without the evidence it needs.
import type { SkipCause } from '../types.ts';

/** A check that gave no verdict, and why (see {@link SkipCause}). */
export interface Skip {
  readonly skip: string;
  readonly cause: SkipCause;
}

/** The rule does not apply to this target or run: no verdict, and the run is not the worse for it. */
export const notApplicable = (reason: string): Skip => ({ skip: reason, cause: 'not-applicable' });

/** The check could not observe what it checks: SKIP with the reason, and the run is inconclusive. */
export const noEvidence = (reason: string): Skip => ({ skip: reason, cause: 'no-evidence' });
