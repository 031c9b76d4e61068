// A check that gave no verdict: not applicable here, or without the evidence it needs.
import type { SkipCause, Finding } from '../types.ts';

/** A check that gave no verdict, and why (see {@link SkipCause}). */
export interface Skip {
  readonly skip: string;
  readonly cause: SkipCause;
}

/** The rule does not apply to this target or run: no verdict, and the run is not the worse for it. */
export const notApplicable = (reason: string): Skip => ({ skip: reason, cause: 'not-applicable' });

/** The check could not observe what it checks: SKIP with the reason, and the run is inconclusive. */
export const noEvidence = (reason: string): Skip => ({ skip: reason, cause: 'no-evidence' });

/**
 * A verdict on part of the claim: the findings on what was seen, and the parts that could not be seen here
 * (a tiebreak where no two records tie). Like "not applicable", an unseen part does not make the run
 * inconclusive; it is reported, never passed.
 */
export interface Partly {
  readonly findings: readonly Finding[];
  readonly notObserved: readonly string[];
}

/** The findings, and the parts of the claim not observable on this target (none: a plain verdict). */
export const partly = (findings: readonly Finding[], notObserved: readonly string[]): Finding[] | Partly =>
  notObserved.length === 0 ? [...findings] : { findings, notObserved };
