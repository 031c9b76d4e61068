// When the first page changed during the run, tells why before grading, and judges again what compares answers.
import type { OperationContext } from '../model/context.ts';
import { heldAtStart, observeChange, stillDuring, untilTold, type Change } from '../moment/live-data.ts';
import { newestCopy } from '../moment/newest-copy.ts';
import type { CheckOutcome, Exchange, Failure } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';
import { runScenario } from './run-scenarios.ts';
import { checkNamed, contextFor, deadlineSkip, type RunScope } from './run-scope.ts';

/**
 * When the first page changed during the run, tells why before grading: the same records in new orders
 * is stable_order's error; records that came or went re-sync the model, and each check with findings that
 * compare answers is run again on a fresh context, up to REREADS times, until a run sees the data still
 * (its verdict then stands, pass or fail); otherwise those findings are inconclusive.
 *
 * @example
 * const outcomes = await judgeAgainIfChanged(scope, await scenariosOf(scope, run), run, probe);
 */
export async function judgeAgainIfChanged(
  scope: RunScope,
  scenarios: CheckOutcome[],
  run: OperationRun,
  probe: Exchange,
  /** What the run held at its start (the listing as first read): re-runs compare with it too. */
  known?: ReadonlySet<string>,
): Promise<CheckOutcome[]> {
  const held = known ?? (await heldAtStart(run.context, probe));
  const change = await observeChange(run.context, probe, scope.rereadMs, held);
  if (change.kind === 'none') return scenarios;
  if (change.kind === 'replicas') {
    // Already read from the newest version, and still several: no answer can be known to come from one.
    if (run.client !== scope.client)
      return scenarios.map((o) => (standsAsRun(scope, o) ? o : invalidate(o, change.why, scope.settings.seed)));
    return rerunOnNewest(scope, scenarios, run, held);
  }
  if (change.kind === 'shuffled') return withShuffled(scenarios, change);
  const judged: CheckOutcome[] = [];
  for (const outcome of scenarios) judged.push(await judgeOneAgain(scope, outcome, run, change.why));
  return judged;
}

/**
 * Several versions at once: what compares answers runs again, each request answered by the newest version,
 * and is then judged as on one server whose data changes.
 */
async function rerunOnNewest(
  scope: RunScope,
  scenarios: CheckOutcome[],
  run: OperationRun,
  known: ReadonlySet<string>,
): Promise<CheckOutcome[]> {
  const client = newestCopy(scope.client, run.operation.paging.count);
  const newest: OperationRun = {
    ...run,
    client,
    context: contextFor(scope, run.operation, client, run.track, { catchUp: run.context.catchUp }),
  };
  const again = await newest.context.send({});
  const rerun: CheckOutcome[] = [];
  for (const outcome of scenarios)
    rerun.push(
      standsAsRun(scope, outcome) ? outcome : await runScenario(checkNamed(scope, outcome.check), newest.context, deadlineSkip(scope)),
    );
  return judgeAgainIfChanged(scope, rerun, newest, again, known);
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

/** One outcome after records came or went: as it stands, rechecked finding by finding, or run again while still. */
async function judgeOneAgain(scope: RunScope, outcome: CheckOutcome, run: OperationRun, why: string): Promise<CheckOutcome> {
  if (standsAsRun(scope, outcome)) return outcome;
  const rechecked = await recheckAll(scope, outcome, run.context);
  if (rechecked) return rechecked.settled ? rechecked.outcome : invalidate(rechecked.outcome, why, scope.settings.seed);
  const again = await untilTold(scope.rereadMs, scope.deadline, async () => {
    const fresh = contextFor(scope, run.operation, run.client, run.track, { catchUp: run.context.catchUp });
    const { result, still } = await stillDuring(fresh, () => runScenario(checkNamed(scope, outcome.check), fresh, undefined));
    return still ? result : undefined;
  });
  return again ?? invalidate(outcome, why, scope.settings.seed);
}

/**
 * Whether an outcome stands whatever the data did: its check judges each answer alone, or its findings are
 * absolute. A check skipped for want of evidence may have been cut short by the change (a listing read
 * across it), so it does not.
 */
function standsAsRun(scope: RunScope, outcome: CheckOutcome): boolean {
  const unseen = outcome.status === 'skipped' && outcome.skipCause === 'no-evidence' && !scope.deadline.aborted;
  return !unseen && (checkNamed(scope, outcome.check).judgesEachAnswer === true || outcome.failures.every((f) => f.absolute));
}

/**
 * When every finding of an outcome that compares answers can send its requests again, each is rechecked
 * alone, up to REREADS times: agreeing now, it was the change's doing (dropped); still disagreeing while the
 * first page stood still around the recheck, it stands. `settled` false when some could not be told.
 */
async function recheckAll(
  scope: RunScope,
  outcome: CheckOutcome,
  context: OperationContext,
): Promise<{ outcome: CheckOutcome; settled: boolean } | undefined> {
  const comparing = outcome.failures.filter((f) => !f.absolute);
  if (outcome.status === 'skipped' || !comparing.every((f) => f.recheck)) return undefined;
  const kept = outcome.failures.filter((f) => f.absolute);
  const untold: Failure[] = [];
  for (const failure of comparing) {
    const verdict = await untilTold(scope.rereadMs, scope.deadline, async () => {
      const { result, still } = await stillDuring(context, failure.recheck!);
      if (result === undefined) return undefined;
      return !result ? 'explained' : still ? 'stands' : undefined;
    });
    if (verdict === 'stands') kept.push(failure);
    else if (!verdict) untold.push(failure);
  }
  if (untold.length > 0 && kept.length === 0) return { outcome: { ...outcome, failures: untold }, settled: false };
  return { outcome: { ...outcome, failures: kept }, settled: true };
}

/**
 * Keeps what no change of data can explain and makes the rest inconclusive: findings that compare answers
 * read at different moments, when the data changed and no still re-run could judge them again.
 */
function invalidate(outcome: CheckOutcome, why: string, seed: number): CheckOutcome {
  const absolute = outcome.failures.filter((f) => f.absolute);
  if (outcome.status === 'skipped' || outcome.failures.length === absolute.length) return outcome;
  if (absolute.length > 0) return { ...outcome, failures: absolute };
  const { failures: _, ...rest } = outcome;
  return {
    ...rest,
    failures: [],
    status: 'skipped',
    skipCause: 'no-evidence',
    skipReason: `data changed during the run (${why}), and no re-run could judge it on data that stood still; run again, with --seed ${seed} to replay the same requests`,
  };
}
