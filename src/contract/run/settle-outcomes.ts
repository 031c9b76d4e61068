// A listing's outcomes once its checks are in: the head read at the end (the claims over time), every finding of
// the rule judged again with all the run saw, and what the versions could not tell judged once more on a fresh read.
import type { OperationContext } from '../model/context.ts';
import type { CheckOutcome, Exchange, Failure } from '../types.ts';
import { headOverTime, type EndReads } from '../model/head-over-time.ts';
import { rejudged } from '../versions/rejudge.ts';

/** What settling a listing's outcomes needs of the run. */
export interface Settling {
  /** The listing's context as the checks ran on it: its versions. */
  readonly context: OperationContext;
  readonly reads: EndReads;
  readonly seed: number;
  /** The check named run again on a fresh read of the listing (new versions), skipped once the deadline passed. */
  runAgain(check: string): Promise<CheckOutcome>;
}

/**
 * The outcomes of one listing, settled by the versions: the head read at the end (see {@link headOverTime}: its
 * finding is stable_order's), each finding of the rule judged again (see Failure.rejudge). A finding the versions
 * could not tell (Failure.unplaced) stands when the head never moved, or moved as no listing does; else the check
 * runs again on a fresh read of the listing, judged by the rule, and what is still untold there is inconclusive,
 * with what the versions lacked.
 *
 * @example
 * const outcomes = await settled(settling, await scenariosOf(scope, run), probe);
 */
export async function settled(settling: Settling, scenarios: readonly CheckOutcome[], probe: Exchange): Promise<CheckOutcome[]> {
  const end = await headOverTime(settling.context, probe, settling.reads);
  // Answers no movement explains (stable_order's finding: a replica stuck, answers alternating): the versions the run
  // saw include the ones it faults, so what they would explain stands as the checks found it, following from it.
  if (end.finding) return withOverTime(scenarios, end.finding);
  const judged = await rejudged(scenarios);
  // One version all run: no fresh read can judge better.
  if (end.still) return judged;
  const settledOnes: CheckOutcome[] = [];
  for (const outcome of judged) {
    // Findings that stand fail the check: those beside them the versions could not tell are the movement's to explain.
    const standing = outcome.failures.filter((f) => !untold(f));
    if (standing.length > 0 && standing.length < outcome.failures.length) settledOnes.push({ ...outcome, failures: standing });
    else if (needsAgain(settling, outcome)) settledOnes.push(await judgedAgain(settling, outcome));
    // Past the deadline no fresh read can judge it: what the versions could not tell is no finding.
    else settledOnes.push(outcome.failures.some(untold) ? inconclusive(settling, outcome, LATE) : outcome);
  }
  return settledOnes;
}

/** A finding the versions could not tell: one no version of the listing stood behind or against. */
const untold = (failure: Failure) => failure.unplaced !== undefined && failure.absolute !== true && failure.rejudge === undefined;

/**
 * Whether an outcome is judged again on a fresh read: a finding of it the versions could not tell, or a skip for
 * want of evidence that the movement may have caused (a listing read across it), while the run has time.
 */
function needsAgain(settling: Settling, outcome: CheckOutcome): boolean {
  if (settling.reads.stop.aborted) return false;
  return outcome.status === 'skipped' ? outcome.skipCause === 'no-evidence' : outcome.failures.some(untold);
}

/** The check run again on a fresh read, judged by the rule: what it still cannot tell is inconclusive, with why. */
async function judgedAgain(settling: Settling, outcome: CheckOutcome): Promise<CheckOutcome> {
  const again = (await rejudged([await settling.runAgain(outcome.check)]))[0]!;
  if (!again.failures.some(untold)) return again;
  const standing = again.failures.filter((f) => !untold(f));
  if (standing.length > 0) return { ...again, failures: standing };
  return inconclusive(settling, again, 'run again');
}

/** What to do when the deadline left no time to judge on a fresh read. */
const LATE = "the run's --max-duration was reached before a fresh read could: run again with a longer --max-duration";

/** `outcome`, whose every finding the versions could not tell, as inconclusive: why, and what to do (`next`). */
function inconclusive(settling: Settling, outcome: CheckOutcome, next: string): CheckOutcome {
  const { failures, ...rest } = outcome;
  return {
    ...rest,
    failures: [],
    status: 'skipped',
    skipCause: 'no-evidence',
    skipReason: `data changed during the run, and the versions of the listing could not tell: ${failures.find(untold)!.unplaced}; ${next}, with --seed ${settling.seed} to replay the same requests`,
  };
}

/** stable_order's outcome with the head's finding over time (a skip for want of records has seen what it checks now). */
function withOverTime(outcomes: readonly CheckOutcome[], finding: Omit<Failure, 'check' | 'operationId'> | undefined): CheckOutcome[] {
  if (!finding) return [...outcomes];
  return outcomes.map((o) => {
    if (o.check !== 'stable_order') return o;
    const { skipReason: _reason, skipCause: _cause, ...seen } = o;
    return {
      ...(o.status === 'skipped' ? { ...seen, status: 'passed' as const } : o),
      failures: [...o.failures, { ...finding, check: o.check, operationId: o.operationId }],
    };
  });
}
