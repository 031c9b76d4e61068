// Every check of every listing operation, side by side (or one after the other), recorded in operation order.
import type { CheckOutcome, Exchange } from '../types.ts';
import { underCause } from '../grading/causes.ts';
import { settled, type Settling } from './settle-outcomes.ts';
import type { OperationRun } from './operation-runs.ts';
import { runScenario, scenariosOf } from './run-scenarios.ts';
import { checkNamed, contextFor, deadlineSkip, type RunScope } from './run-scope.ts';

/** What settling a listing's outcomes needs of this run (see settled). */
const settlingOf = (scope: RunScope, run: OperationRun): Settling => ({
  context: run.context,
  reads: { maxStalenessMs: scope.settings.maxStalenessMs, stop: scope.deadline },
  seed: scope.settings.seed,
  runAgain: (check) =>
    runScenario(checkNamed(scope, check), contextFor(scope, run.operation, scope.client, run.track), deadlineSkip(scope)),
});

/**
 * The scenario checks of one operation on its context, settled by the versions of its listing.
 *
 * @example
 * const outcomes = await judgedScenarios(scope, run, probe);
 */
export async function judgedScenarios(scope: RunScope, run: OperationRun, probe: Exchange): Promise<CheckOutcome[]> {
  return underCause(scope.checks, await settled(settlingOf(scope, run), await scenariosOf(scope, run), probe));
}

/** The scenario outcomes of every operation (in order), and what the run does once they are all in. */
export type AfterPlanned = (planned: readonly CheckOutcome[][]) => Promise<readonly CheckOutcome[][]>;

/**
 * The outcomes of every operation, in the order of the operations however their answers interleave: the scenario
 * checks of all, then `afterPlanned` with them (a trimmed plan's extension, see run/extend-plan.ts), then each
 * operation's response checks over every answer it got.
 *
 * @example
 * const outcomes = await checkOperations(scope, runs, probes);
 */
export async function checkOperations(
  scope: RunScope,
  runs: readonly OperationRun[],
  probes: readonly Exchange[],
  afterPlanned?: AfterPlanned,
): Promise<CheckOutcome[]> {
  const planned: CheckOutcome[][] = [];
  const started = scope.settings.concurrency === 1 ? undefined : runs.map((run, i) => judgedScenarios(scope, run, probes[i]!));
  // A listing's failure waits its turn to be thrown: it must not go unhandled meanwhile.
  for (const operation of started ?? []) operation.catch(() => undefined);
  for (const [i, run] of runs.entries()) planned.push(await (started ? started[i]! : judgedScenarios(scope, run, probes[i]!)));
  const scenarios = afterPlanned ? await afterPlanned(planned) : planned;
  const outcomes: CheckOutcome[] = [];
  for (const [i, run] of runs.entries()) {
    await run.recorder.settled();
    outcomes.push(...scenarios[i]!, ...run.judge.outcomes());
  }
  return outcomes;
}
