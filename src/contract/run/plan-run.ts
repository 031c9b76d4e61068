// A run planned to fit --max-duration: after the first reads, what the rest of the plan costs on this target is
// estimated from timed searches per listing (alone, and two at once); the generated examples are trimmed to fit,
// then the covering set and the special terms together.
import { SENT_ALONE_CAP } from '../client/send-alone.ts';
import { coveringCosts } from '../material/covering-set.ts';
import { HAZARD_CLASSES, hazardProbes } from '../material/hazard-terms.ts';
import { requestKind } from '../model/listing-query.ts';
import type { RunPlan } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';
import type { RunScope } from './run-scope.ts';
import { type SearchTiming, timeSearches } from './time-searches.ts';

/**
 * The requests of a run per listing, by kind, besides the covering set (see coveringCosts) and the special terms
 * (a search each), as a function of --examples: what a run against the kit's own mock sends (`plan-run.test.ts`
 * holds the whole estimate to it, so a change of the plan shows here).
 */
export const PLAN_REQUESTS = {
  search: { fixed: 5, perExample: 1 },
  page: { fixed: 112, perExample: 0.25 },
} as const;
/**
 * The share of the time left the estimate may fill: rechecks, re-sends and a listing that moves need the rest.
 * How near a trimmed run ends to --max-duration against PostgreSQL is measured in docs/performance.md.
 */
export const FILL = 0.9;

/** The share of what two searches at once gained over one after the other that the plan counts on. */
export const PARALLEL_GAIN_COUNTED = 0.5;

/** How much of the plan a run keeps: --examples, and the first requests of the covering set and special terms. */
interface Breadth {
  readonly examples: number;
  readonly covering: number;
  readonly specialTerms: number;
}

/**
 * Times searches per listing (see timeSearches), estimates the rest of the run with each kind of request at
 * what the target runs at once and the run's limit of that kind lets it (see planCost), and returns the plan: as asked when it fits 90% of the time
 * left; else --examples trimmed to the most that fit (at least 1); else, with 1 example, the covering set and the
 * special terms trimmed together to the most that fit, down to every class of each once; with why.
 *
 * @example
 * const plan = await planRun(scope, runs, () => performance.now() - startedAt);
 * if (plan.why) console.log(plan.why); // examples 50 -> 1, covering set 112 -> 40, special terms 50 -> 18: ...
 */
export async function planRun(scope: RunScope, runs: readonly OperationRun[], elapsedMs: () => number): Promise<RunPlan> {
  // The timing is the run's time too: what is left is counted after it.
  const measured = await timeSearches(runs, scope.settings.seed, scope.options.timeoutMs);
  const spentMs = elapsedMs();
  const limit = scope.client.limit;
  const kindOf = requestKind(runs.map(({ operation }) => operation));
  // No more at once than the limit of searches holds after the timing: what the run will send at once. Of what
  // two at once gained, half is counted: they were timed with nothing else running, and in the run the pages and
  // the kit itself share the target (on one machine, its cores), so a plan counting it all ran past its budget.
  const timed = measured.map((search, i) => {
    const held = limit?.current(kindOf(runs[i]!.operation.path, { [runs[i]!.context.parameters.search.name]: 'x' }));
    const atOnce = Math.max(1, Math.min(search.atOnce, held ?? search.atOnce));
    return { ...search, atOnce: 1 + (atOnce - 1) * PARALLEL_GAIN_COUNTED };
  });
  const pages = runs.map(({ operation }) => {
    const kind = kindOf(operation.path, {});
    return { ms: limit?.unloaded().get(kind) ?? 0, atOnce: Math.max(1, limit?.current(kind) ?? 1) };
  });
  const coverings = runs.map(({ context }) => coveringCosts(context.parameters));
  const cost = (breadth: Breadth) =>
    timed.reduce((total, search, i) => total + planCost(counted(breadth, coverings[i]!), search, pages[i]!, scope.options.timeoutMs), 0);
  const asked: Breadth = {
    examples: scope.settings.examples,
    covering: scope.settings.covering ?? Math.max(...coverings.map((c) => c.prefixes.length - 1)),
    specialTerms: scope.settings.specialTerms ?? hazardProbes().length,
  };
  const room = FILL * Math.max(0, scope.maxDurationMs - spentMs);
  const fits = (breadth: Breadth) => cost(breadth) <= room;
  const used = fits(asked) ? asked : trimmed(asked, fits, Math.max(...coverings.map((c) => c.everyClass)));
  const plan = {
    examples: { asked: asked.examples, used: used.examples },
    covering: { asked: asked.covering, used: used.covering },
    specialTerms: { asked: asked.specialTerms, used: used.specialTerms },
    estimateMs: Math.round(cost(used)),
  };
  if (used === asked) return plan;
  const parts = [
    `examples ${asked.examples} -> ${used.examples}`,
    ...(used.covering !== asked.covering ? [`covering set ${asked.covering} -> ${used.covering}`] : []),
    ...(used.specialTerms !== asked.specialTerms ? [`special terms ${asked.specialTerms} -> ${used.specialTerms}`] : []),
  ].join(', ');
  const slowest = timed.reduce((a, b) => ((b.aloneMs ?? Number.POSITIVE_INFINITY) > (a.aloneMs ?? Number.POSITIVE_INFINITY) ? b : a));
  const search = `a search takes ${slowest.aloneMs === undefined ? `over ${seconds(scope.options.timeoutMs)}` : `${seconds(slowest.aloneMs)}, ${slowest.atOnce.toFixed(1)} at once`} here`;
  const whole = Math.ceil((cost(asked) / FILL + spentMs) / 60_000) * 60;
  return {
    ...plan,
    why: fits(used)
      ? `${parts}: ${search}`
      : `${parts}, and the run still needs about ${seconds(cost(used) + spentMs)} of the ${seconds(scope.maxDurationMs)} it has: ${search}; --max-duration ${whole} gives the whole run`,
  };
}

/** The requests of one listing at a breadth, by kind: searches and pages. */
function counted({ examples, covering, specialTerms }: Breadth, { prefixes }: ReturnType<typeof coveringCosts>) {
  const judged = prefixes[Math.min(covering, prefixes.length - 1)]!;
  return {
    searches: PLAN_REQUESTS.search.fixed + PLAN_REQUESTS.search.perExample * examples + judged.searches + specialTerms,
    pages: PLAN_REQUESTS.page.fixed + PLAN_REQUESTS.page.perExample * examples + judged.pages,
  };
}

/**
 * What a listing's requests cost in time: each kind's latency divided by what the target runs of it at once
 * (searches as timed, pages as the limit of their kind holds them). A search that got no answer is priced at
 * the timeout, and again at the timeout for its re-send alone (as many as the run sends again, at most).
 *
 * @example
 * planCost({ searches: 40, pages: 120 }, { aloneMs: 6_000, atOnce: 2 }, { ms: 20, atOnce: 4 }, 10_000); // 120,600
 */
export function planCost(
  requests: { readonly searches: number; readonly pages: number },
  search: SearchTiming,
  page: { readonly ms: number; readonly atOnce: number },
  timeoutMs: number,
): number {
  const searchesMs =
    search.aloneMs === undefined
      ? requests.searches * timeoutMs + Math.min(requests.searches, SENT_ALONE_CAP) * timeoutMs
      : (requests.searches * search.aloneMs) / search.atOnce;
  return searchesMs + (requests.pages * page.ms) / page.atOnce;
}

/**
 * The most of `asked` that fits: --examples first (the cost grows by the same amount per example), then, at one
 * example, the covering set and the special terms by the same share, down to `everyClass` requests and one term
 * of each class.
 */
function trimmed(asked: Breadth, fits: (breadth: Breadth) => boolean, everyClass: number): Breadth {
  const at = (examples: number) => ({ ...asked, examples });
  if (fits(at(1))) {
    let [low, high] = [1, asked.examples];
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (fits(at(mid))) low = mid;
      else high = mid;
    }
    return at(low);
  }
  const examples = Math.min(1, asked.examples);
  const fewestCovering = Math.min(asked.covering, everyClass);
  const fewestTerms = Math.min(asked.specialTerms, HAZARD_CLASSES);
  const share = (covering: number): Breadth => ({
    examples,
    covering,
    specialTerms: Math.max(fewestTerms, Math.ceil((asked.specialTerms * covering) / Math.max(1, asked.covering))),
  });
  for (let covering = asked.covering; covering > fewestCovering; covering -= 1) if (fits(share(covering))) return share(covering);
  return { examples, covering: fewestCovering, specialTerms: fewestTerms };
}

const seconds = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 1000).toFixed(1)} s`);
