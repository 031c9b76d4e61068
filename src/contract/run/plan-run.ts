// A run planned to fit --max-duration: after the first reads, what the rest of the plan costs on this target is
// estimated from a timed search per listing, and the generated examples are trimmed to fit.
import { noMatchTerm } from '../material/search-term.ts';
import { requestKind } from '../model/listing-query.ts';
import type { RunPlan } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';
import type { RunScope } from './run-scope.ts';

/**
 * The requests of a run per listing, by kind, as a function of --examples: what a run against the kit's own mock
 * sends (`plan-run.test.ts` holds these to it, so a change of the plan shows here).
 */
export const PLAN_REQUESTS = {
  search: { fixed: 157, perExample: 1.14 },
  page: { fixed: 146, perExample: 0.2 },
} as const;
/** The share of the time left the estimate may fill: rechecks, re-sends and a listing that moves need the rest. */
const FILL = 0.8;
/** The seeded no-match term's index for the timed search: it scans everything a search can (no early stop). */
const TIMED_SEARCH = 7;

/**
 * Times one search per listing (a term nothing holds, so the target reads all it searches), estimates the rest of
 * the run with searches one at a time (as a database without a search index runs them), and returns the plan:
 * --examples as asked when it fits 80% of the time left, else the most that do (at least 1), with why.
 *
 * @example
 * const plan = await planRun(scope, runs, performance.now() - startedAt);
 * if (plan.examples.used < plan.examples.asked) console.log(plan.why);
 */
export async function planRun(scope: RunScope, runs: readonly OperationRun[], elapsedMs: number): Promise<RunPlan> {
  const asked = scope.settings.examples;
  const timed = await Promise.all(
    runs.map(async ({ context }) => {
      // On a connection of its own where the client can choose: a server keeping state per connection (a
      // search, a replica) must not carry the timing read into the pages the checks read.
      const query = { [context.parameters.search.name]: noMatchTerm(scope.settings.seed, TIMED_SEARCH) };
      const exchange = context.sendOnOneConnection ? (await context.sendOnOneConnection([{ query }]))[0] : await context.send(query);
      return exchange?.response?.durationMs;
    }),
  );
  const unloaded = scope.client.limit?.unloaded();
  const kindOf = requestKind(runs.map(({ operation }) => operation));
  const pageMs = Math.max(0, ...runs.map(({ operation }) => unloaded?.get(kindOf(operation.path, {})) ?? 0));
  const searchMs = timed.map((ms) => ms ?? scope.options.timeoutMs ?? 0);
  const cost = (examples: number) =>
    searchMs.reduce(
      (total, ms) =>
        total +
        (PLAN_REQUESTS.search.fixed + PLAN_REQUESTS.search.perExample * examples) * ms +
        (PLAN_REQUESTS.page.fixed + PLAN_REQUESTS.page.perExample * examples) * pageMs,
      0,
    );
  const leftMs = Math.max(0, scope.maxDurationMs - elapsedMs);
  const slowest = Math.max(...searchMs);
  const search = `a search takes ${seconds(slowest)} here`;
  if (cost(asked) <= FILL * leftMs) return { examples: { asked, used: asked }, estimateMs: Math.round(cost(asked)) };
  // The cost grows by the same amount per example: the most that fit, at least 1.
  const perExample = cost(1) - cost(0);
  const most = Math.floor((FILL * leftMs - cost(0)) / perExample);
  const used = Math.max(1, Math.min(asked, cost(most) > FILL * leftMs ? most - 1 : most));
  const fits = cost(used) <= FILL * leftMs;
  const whole = Math.ceil((cost(asked) / FILL + elapsedMs) / 60_000) * 60;
  return {
    examples: { asked, used },
    estimateMs: Math.round(cost(used)),
    why: fits
      ? `examples ${asked} -> ${used}: ${search}`
      : `examples ${asked} -> ${used}, and the run still needs about ${seconds(cost(used) + elapsedMs)} of the ${seconds(scope.maxDurationMs)} it has: ${search}; --max-duration ${whole} gives the whole run`,
  };
}

const seconds = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 1000).toFixed(1)} s`);
