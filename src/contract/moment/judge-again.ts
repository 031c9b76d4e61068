// When the first page changed during the run, tells why before grading, and judges again what compares answers.
import type { HttpClient } from '../client/http-client.ts';
import type { OperationContext } from '../model/context.ts';
import type { CheckOutcome, Exchange, Failure } from '../types.ts';
import { heldAtStart, observeChange, type Change } from './live-data.ts';
import { newestCopy } from './newest-copy.ts';
import { atOneMoment } from './one-moment.ts';
import { rejudged } from '../versions/rejudge.ts';

/** What judging a listing's outcomes again needs of the run: where it reads, and how it runs a check again. */
export interface Rejudging {
  /** The listing's context as the checks ran on it. */
  readonly context: OperationContext;
  /** The client the context sends through, and whether it already answers each request by its newest copy. */
  readonly client: HttpClient;
  readonly onNewest: boolean;
  /** Time between reads of data that moved, and the run's deadline. */
  readonly intervalMs: number;
  readonly stop: AbortSignal;
  readonly seed: number;
  /** Whether the check named judges each answer alone (a change of data cannot explain its findings). */
  judgesEachAnswer(check: string): boolean;
  /** A fresh context for the listing, sending through `client`. */
  contextWith(client: HttpClient): OperationContext;
  /** The check named run again on `context` (skipped once the deadline passed). */
  runAgain(check: string, context: OperationContext): Promise<CheckOutcome>;
}

/**
 * When the first page changed during the run, tells why before grading (see {@link observeChange}): the same
 * records in new orders is stable_order's error; replicas in turn re-run what compares answers on the newest
 * copy of each answer; records that came or went re-sync the model, and each finding that compares answers is
 * read again at one moment ({@link atOneMoment}), finding by finding or its check run again; what no moment
 * could judge is inconclusive, with why.
 *
 * @example
 * const outcomes = await judgeAgainIfChanged(rejudging, await scenariosOf(scope, run), probe);
 */
export async function judgeAgainIfChanged(
  rejudging: Rejudging,
  scenarios: CheckOutcome[],
  probe: Exchange,
  /** What the run held at its start (the listing as first read): re-runs compare with it too. */
  known?: ReadonlySet<string>,
): Promise<CheckOutcome[]> {
  const held = known ?? (await heldAtStart(rejudging.context, probe));
  const change = await observeChange(rejudging.context, probe, rejudging.intervalMs, held);
  if (change.kind === 'none') return scenarios;
  if (change.kind === 'replicas') {
    // Already read from the newest version, and still several: no answer can be known to come from one.
    if (rejudging.onNewest) {
      const because = 'its answers still came from several versions';
      return scenarios.map((o) => (standsAsRun(rejudging, o) ? o : invalidate(o, change.why, because, rejudging.seed)));
    }
    return rerunOnNewest(rejudging, scenarios, held);
  }
  if (change.kind === 'shuffled') return withShuffled(scenarios, change);
  const judged: CheckOutcome[] = [];
  for (const outcome of scenarios) judged.push(await judgeOneAgain(rejudging, outcome, change.why));
  return judged;
}

/**
 * Several versions at once: what compares answers runs again, each request answered by the newest version,
 * and is then judged as on one server whose data changes.
 */
async function rerunOnNewest(rejudging: Rejudging, scenarios: CheckOutcome[], known: ReadonlySet<string>): Promise<CheckOutcome[]> {
  const { operation } = rejudging.context;
  const client = newestCopy(rejudging.client, { countHeader: operation.paging.count, order: operation.order });
  const newest: Rejudging = { ...rejudging, client, onNewest: true, context: rejudging.contextWith(client) };
  const again = await newest.context.send({});
  const rerun: CheckOutcome[] = [];
  for (const outcome of scenarios) {
    if (standsAsRun(rejudging, outcome)) rerun.push(outcome);
    // Run as the first run was (no moment asked of it), judged as it was: a finding the versions rule explains is none.
    else rerun.push(...(await rejudged([await rejudging.runAgain(outcome.check, newest.context)])));
  }
  return judgeAgainIfChanged(newest, rerun, again, known);
}

/** The same records in new orders: stable_order's error, added to its outcome. */
function withShuffled(scenarios: CheckOutcome[], change: Extract<Change, { kind: 'shuffled' }>): CheckOutcome[] {
  return scenarios.map((o) => {
    if (o.check !== 'stable_order') return o;
    // Skipped for want of records to compare, it has seen what it checks now: no skip is left on it.
    const { skipReason: _reason, skipCause: _cause, ...seen } = o;
    return {
      ...(o.status === 'skipped' ? { ...seen, status: 'passed' as const } : o),
      failures: [...o.failures, { ...change.finding, check: o.check, operationId: o.operationId }],
    };
  });
}

/** One outcome after records came or went: as it stands, rechecked finding by finding, or run again at one moment. */
async function judgeOneAgain(rejudging: Rejudging, outcome: CheckOutcome, why: string): Promise<CheckOutcome> {
  if (standsAsRun(rejudging, outcome)) return outcome;
  const rechecked = await recheckAll(rejudging, outcome);
  if (rechecked) return rechecked.because ? invalidate(rechecked.outcome, why, rechecked.because, rejudging.seed) : rechecked.outcome;
  const again = await atOneMoment(rejudging.context, () => rejudging.runAgain(outcome.check, rejudging.contextWith(rejudging.client)), {
    intervalMs: rejudging.intervalMs,
    stop: rejudging.stop,
  });
  return again.kind === 'could-not' ? invalidate(outcome, why, again.why, rejudging.seed) : again.value;
}

/**
 * Whether an outcome stands whatever the data did: its check judges each answer alone, or its findings are
 * absolute. A check skipped for want of evidence may have been cut short by the change (a listing read
 * across it), so it does not.
 */
function standsAsRun(rejudging: Rejudging, outcome: CheckOutcome): boolean {
  const unseen = outcome.status === 'skipped' && outcome.skipCause === 'no-evidence' && !rejudging.stop.aborted;
  return !unseen && (rejudging.judgesEachAnswer(outcome.check) || outcome.failures.every(stands));
}

/**
 * When every finding of an outcome that compares answers can send its requests again, each is read again at
 * one moment: agreeing now, it was the change's doing (dropped); still disagreeing at one moment, it stands.
 * `because`: why none could be told, when none stands.
 */
async function recheckAll(rejudging: Rejudging, outcome: CheckOutcome): Promise<{ outcome: CheckOutcome; because?: string } | undefined> {
  const comparing = outcome.failures.filter((f) => !stands(f));
  if (outcome.status === 'skipped' || !comparing.every((f) => f.recheck)) return undefined;
  const kept = outcome.failures.filter(stands);
  const untold: Failure[] = [];
  let because = '';
  for (const failure of comparing) {
    const moment = await atOneMoment(rejudging.context, failure.recheck!, {
      settles: (holds) => !holds && !failure.recheckAgainstModel,
      intervalMs: rejudging.intervalMs,
      stop: rejudging.stop,
    });
    if (moment.kind === 'one' && moment.value) kept.push(failure);
    else if (moment.kind === 'could-not') {
      untold.push(failure);
      because ||= moment.why;
    }
  }
  if (untold.length > 0 && kept.length === 0) return { outcome: { ...outcome, failures: untold }, because };
  return { outcome: { ...outcome, failures: kept } };
}

/** A finding no change of data can explain: absolute, or judged by the versions rule already (see Failure.rejudge). */
const stands = (failure: Failure) => failure.absolute === true || failure.rejudge !== undefined;

/**
 * Keeps what no change of data can explain and makes the rest inconclusive: findings that compare answers
 * read at different moments, when the data changed and no still re-run could judge them again.
 */
function invalidate(outcome: CheckOutcome, why: string, because: string, seed: number): CheckOutcome {
  const absolute = outcome.failures.filter(stands);
  if (outcome.status === 'skipped' || outcome.failures.length === absolute.length) return outcome;
  if (absolute.length > 0) return { ...outcome, failures: absolute };
  const { failures: _, ...rest } = outcome;
  // What the versions rule lacked to judge it instead, with the flag that would have let the run see it.
  const unplaced = outcome.failures.find((f) => f.unplaced)?.unplaced;
  return {
    ...rest,
    failures: [],
    status: 'skipped',
    skipCause: 'no-evidence',
    skipReason: `data changed during the run (${why}), and no re-run could judge it at one moment (${because})${unplaced ? `; the versions of the listing could not tell: ${unplaced}` : ''}; run again, with --seed ${seed} to replay the same requests`,
  };
}
