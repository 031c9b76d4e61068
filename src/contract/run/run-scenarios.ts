// The scenario checks of one operation: one after another, or side by side in groups, each check's outcome in
// check order whatever order answers arrive in.
import { outcomeBase, type Check } from '../model/check.ts';
import type { OperationContext } from '../model/context.ts';
import type { Skip } from '../model/skip.ts';
import type { CheckOutcome } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';
import { contextFor, deadlineSkip, type RunScope } from './run-scope.ts';

/**
 * Runs one scenario check on `context` (skipped with `stopped` when given, or with the check's own reason).
 *
 * @example
 * const outcome = await runScenario(check, context, deadlineSkip(scope));
 */
export async function runScenario(check: Check, context: OperationContext, stopped: Skip | undefined): Promise<CheckOutcome> {
  if (check.kind !== 'scenario') throw new Error('not a scenario check');
  const base = outcomeBase(check, context.operation.operationId);
  const skip = stopped ?? check.skip?.(context);
  if (skip) return { ...base, status: 'skipped', failures: [], skipReason: skip.skip, skipCause: skip.cause };
  const result = await check.run(context);
  if ('skip' in result) return { ...base, status: 'skipped', failures: [], skipReason: result.skip, skipCause: result.cause };
  const [findings, notObserved] = 'notObserved' in result ? [result.findings, result.notObserved] : [result, []];
  return {
    ...base,
    status: 'passed',
    failures: findings.map((f) => ({ ...f, check: check.name, operationId: base.operationId })),
    ...(notObserved.length > 0 ? { notObserved } : {}),
  };
}

/** Runs `group` one check after another on `context`. */
async function oneByOne(scope: RunScope, group: readonly Check[], context: OperationContext): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  for (const check of group) {
    const outcome = await runScenario(check, context, deadlineSkip(scope));
    // Cut short by the deadline with nothing found: what it saw proves nothing either way.
    const cut = scope.deadline.aborted && outcome.status !== 'skipped' && outcome.failures.length === 0;
    outcomes.push(
      cut
        ? {
            ...outcome,
            status: 'skipped',
            skipCause: 'no-evidence',
            skipReason: `the run's --max-duration of ${Math.round(scope.maxDurationMs / 1000)} s was reached during this check`,
          }
        : outcome,
    );
  }
  return outcomes;
}

/** The scenario checks in groups that share what they send (see ScenarioCheck.group), in check order. */
function groupsOf(checks: readonly Check[]): Check[][] {
  const groups = new Map<string, Check[]>();
  for (const check of checks) {
    const key = (check.kind === 'scenario' && check.group) || check.name;
    groups.set(key, [...(groups.get(key) ?? []), check]);
  }
  return [...groups.values()];
}

/**
 * The scenario checks of one operation: one after another (concurrency 1), or side by side, each group on
 * a context of its own that tracks what it sends in a list of its own (a finding's recheck, later, too);
 * the operation's listing is read once, tracked with the operation's own requests. The outcomes come in
 * check order, the requests' places group by group: the same whatever order answers arrive in.
 *
 * @example
 * const outcomes = await scenariosOf(scope, run);
 */
export async function scenariosOf(scope: RunScope, run: OperationRun): Promise<CheckOutcome[]> {
  const scenarioChecks = scope.checks.filter((c) => c.kind === 'scenario');
  if (scope.settings.concurrency === 1) return oneByOne(scope, scenarioChecks, run.context);
  const done = await Promise.all(
    groupsOf(scenarioChecks).map((group) => {
      const background = group.every((check) => check.kind === 'scenario' && check.background);
      return oneByOne(
        scope,
        group,
        contextFor(scope, run.operation, scope.client, run.recorder.list(), { shared: run.context, priority: background ? -1 : 0 }),
      );
    }),
  );
  const byCheck = new Map(done.flat().map((outcome) => [outcome.check, outcome]));
  return scenarioChecks.map((check) => byCheck.get(check.name)!);
}
