import type { CheckOutcome, ContractReport, ListingCoverage, RunPlan, TimingReport, Verdict } from '../types.ts';
import { CAUSE, failedInOrder } from './causes.ts';

/** What a run counted, besides its outcomes. */
export interface GradeInput {
  readonly target: string;
  readonly strict: boolean;
  readonly outcomes: readonly CheckOutcome[];
  readonly stats: { readonly sent: number; readonly retried: number };
  readonly seed: number;
  readonly examples: number;
  readonly coverage?: readonly ListingCoverage[];
  readonly timing?: TimingReport;
  readonly plan?: RunPlan;
}

/**
 * Turns outcomes into the run's verdict. A check fails on an error (on a warning too under strict). The run
 * is conformant only when no check failed and every requested check was evaluated: a check skipped for
 * want of evidence makes it inconclusive, one that does not apply (an opt-in check, an optional header
 * the target does not send) does not.
 */
export function grade(input: GradeInput): ContractReport {
  const outcomes = input.outcomes.map((outcome): CheckOutcome => {
    if (outcome.status === 'skipped') return outcome;
    const errors = outcome.failures.some((f) => f.severity === 'error');
    const warnings = outcome.failures.some((f) => f.severity === 'warning');
    return { ...outcome, status: errors || (input.strict && warnings) ? 'failed' : warnings ? 'warned' : 'passed' };
  });
  const count = (status: CheckOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  const unevaluated = outcomes.filter((o) => o.status === 'skipped' && o.skipCause === 'no-evidence');
  const summary = {
    passed: count('passed'),
    failed: count('failed'),
    warned: count('warned'),
    skipped: count('skipped'),
    inconclusive: unevaluated.length,
    requests: input.stats.sent,
    retried: input.stats.retried,
  };
  const verdict: Verdict = summary.failed > 0 ? 'not conformant' : unevaluated.length > 0 ? 'inconclusive' : 'conformant';
  const { causes, following } = failedInOrder(outcomes);
  const notEvaluated =
    unevaluated.length > 0
      ? `${unevaluated.length} requested check${unevaluated.length === 1 ? '' : 's'} could not be evaluated: ${unevaluated
          .slice(0, 3)
          .map((o) => `${o.check} on ${o.operationId} (${o.skipReason ?? ''})`)
          .join('; ')}${unevaluated.length > 3 ? '; …' : ''}`
      : undefined;
  // A failing run names what failed first; what could not be evaluated comes after, if anything.
  const followed =
    following.length > 0
      ? `; ${following.length} more follow${following.length === 1 ? 's' : ''} from ${CAUSE} (${following.join(', ')})`
      : '';
  const failedAlone = causes.length > 0 ? causes : following;
  const reason =
    failedAlone.length > 0
      ? `${failedAlone.length} check${failedAlone.length === 1 ? '' : 's'} failed (${failedAlone.join(', ')})${causes.length > 0 ? followed : ''}${notEvaluated ? `; and ${notEvaluated}` : ''}`
      : notEvaluated;
  return {
    target: input.target,
    strict: input.strict,
    outcomes,
    summary,
    conformant: verdict === 'conformant',
    verdict,
    ...(reason ? { reason } : {}),
    seed: input.seed,
    examples: input.examples,
    ...(input.coverage ? { coverage: input.coverage } : {}),
    ...(input.timing ? { timing: input.timing } : {}),
    ...(input.plan ? { plan: input.plan } : {}),
  };
}

/** The report of a run that could not run (exit 2), so CI's report upload still has a file saying why. */
export function unrunReport(target: string, strict: boolean, reason: string): ContractReport {
  return {
    target,
    strict,
    outcomes: [],
    summary: { passed: 0, failed: 0, warned: 0, skipped: 0, inconclusive: 0, requests: 0, retried: 0 },
    conformant: false,
    verdict: 'could not run',
    reason,
  };
}
