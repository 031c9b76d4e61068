// Every check of every listing operation, side by side (or one after the other), recorded in operation order.
import type { CheckOutcome, Exchange } from '../types.ts';
import { underCause } from '../grading/causes.ts';
import { judgeAgainIfChanged, type Rejudging } from '../moment/judge-again.ts';
import { rejudged } from '../versions/rejudge.ts';
import type { OperationRun } from './operation-runs.ts';
import { runScenario, scenariosOf } from './run-scenarios.ts';
import { checkNamed, contextFor, deadlineSkip, type RunScope } from './run-scope.ts';

/** What judging a listing again at one moment needs of this run (see judgeAgainIfChanged). */
const rejudgingOf = (scope: RunScope, run: OperationRun): Rejudging => ({
  context: run.context,
  client: run.client,
  onNewest: false,
  intervalMs: scope.rereadMs,
  stop: scope.deadline,
  seed: scope.settings.seed,
  judgesEachAnswer: (check) => checkNamed(scope, check).judgesEachAnswer === true,
  contextWith: (client) => contextFor(scope, run.operation, client, run.track, { versions: run.context.versions }),
  runAgain: (check, context) => runScenario(checkNamed(scope, check), context, deadlineSkip(scope)),
});

/**
 * The scenario checks of one operation on its context: judged by the versions rule, and again if the data changed.
 *
 * @example
 * const outcomes = await judgedScenarios(scope, run, probe);
 */
export async function judgedScenarios(scope: RunScope, run: OperationRun, probe: Exchange): Promise<CheckOutcome[]> {
  const scenarios = await rejudged(await scenariosOf(scope, run));
  return underCause(scope.checks, await judgeAgainIfChanged(rejudgingOf(scope, run), scenarios, probe));
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
