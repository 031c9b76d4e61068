// A trimmed plan judges more in the time left: once every planned check has ended (sharing their time delayed
// them past the budget), the next covering requests and special terms, in batches, each priced before it starts.
import type { CheckOutcome, Exchange, RunPlan } from '../types.ts';
import { underCause } from '../grading/causes.ts';
import { type AfterPlanned, judgedScenarios } from './check-operations.ts';
import { nextStep } from './extension-step.ts';
import { joinOutcomes } from './join-outcomes.ts';
import type { OperationRun } from './operation-runs.ts';
import type { Breadth, Planned } from './plan-run.ts';
import { contextFor, type RunScope } from './run-scope.ts';

/** No batch starts that its price ends past this share of --max-duration: the margin for a price that was low. */
export const EXTEND_UNTIL = 0.9;
/** A batch adds at most this share of the plan as asked, so the price is measured again often. */
const BATCH_SHARE = 1 / 16;
/**
 * The least ratio of time to estimate the first batch is priced at: a batch is explorations judging one request after
 * another, with the reference pages and re-reads the estimate does not count, slower for its estimate than the
 * planned checks side by side (see docs/contract.md for the figures).
 */
const FIRST_BATCH_RATIO = 2;

/** A trimmed plan's extension: the hook that runs it, and the plan as judged in the end. */
export interface Extension {
  readonly afterPlanned: AfterPlanned;
  /** The plan with what the extension judged (RunPlan.extended), once it has run. */
  plan(): RunPlan;
}

/**
 * The extension of `planned` (nothing to do when it was not trimmed), batches judged on every operation side by
 * side: its checks that grow with the covering set or the special terms, on the next of them, judged as planned
 * ones are (the versions rule, again if the data changed, the response checks on every answer). The price of a
 * batch is the plan's estimate of it times the dearest ratio of time to estimate so far (the planned checks', at
 * least FIRST_BATCH_RATIO, then each batch's); a batch the deadline cut is not counted. `clock` gives the time since the run's first request.
 *
 * @example
 * const extension = extendPlan(scope, runs, probes, planned, () => performance.now() - startedAt);
 * const outcomes = await checkOperations(scope, runs, probes, extension.afterPlanned);
 */
export function extendPlan(
  scope: RunScope,
  runs: readonly OperationRun[],
  probes: readonly Exchange[],
  planned: Planned,
  clock: () => number,
): Extension {
  const { asked, cost } = planned;
  let at = planned.used;
  const plannedFrom = clock();
  return {
    plan: () => withExtension(planned, at),
    async afterPlanned(outcomes) {
      let joined = outcomes.map((o) => [...o]);
      let ratio = Math.max(FIRST_BATCH_RATIO, (clock() - plannedFrom) / Math.max(1, cost(planned.used)));
      const most = Math.max(1, Math.ceil(Math.max(asked.covering, asked.specialTerms) * BATCH_SHARE));
      for (;;) {
        const msLeft = EXTEND_UNTIL * scope.maxDurationMs - clock();
        const next = scope.deadline.aborted ? undefined : nextStep({ asked, at, cost, ratio, msLeft, most });
        if (!next) return joined;
        const started = clock();
        const batch = await judgeBatch(scope, runs, probes, at, next);
        if (scope.deadline.aborted) return joined;
        joined = joined.map((o, i) => underCause(scope.checks, joinOutcomes(o, batch[i]!)));
        // The dearest measure so far: a batch cheaper than priced does not make the next one cheaper.
        ratio = Math.max(ratio, (clock() - started) / Math.max(1, cost(next) - cost(at)));
        at = next;
      }
    },
  };
}

/** The checks that grow with the part of the plan between `from` and `to`, on contexts of that part, each operation side by side. */
function judgeBatch(
  scope: RunScope,
  runs: readonly OperationRun[],
  probes: readonly Exchange[],
  from: Breadth,
  to: Breadth,
): Promise<CheckOutcome[][]> {
  const grows = {
    covering: to.covering > from.covering,
    specialTerms: to.specialTerms > from.specialTerms,
  };
  const part: RunScope = {
    ...scope,
    checks: scope.checks.filter((c) => c.kind === 'scenario' && c.grows !== undefined && grows[c.grows]),
    settings: {
      ...scope.settings,
      examples: 0,
      covering: to.covering,
      coveringFrom: from.covering,
      specialTerms: to.specialTerms,
      specialTermsFrom: from.specialTerms,
    },
  };
  return Promise.all(
    runs.map((run, i) => {
      const context = contextFor(part, run.operation, run.client, run.track, { shared: run.context });
      return judgedScenarios(part, { ...run, context }, probes[i]!);
    }),
  );
}

/** The plan as judged: the covering set and special terms used are all that were judged (their flags replay it). */
function withExtension({ plan, used }: Planned, at: Breadth): RunPlan {
  if (at === used) return plan;
  return {
    ...plan,
    covering: { ...plan.covering, used: at.covering },
    specialTerms: { ...plan.specialTerms, used: at.specialTerms },
    extended: { covering: at.covering - used.covering, specialTerms: at.specialTerms - used.specialTerms },
  };
}
