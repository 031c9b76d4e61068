// A run planned to fit --max-duration: after the first reads, what the rest of the plan costs on this target is
// estimated from a timed search per listing; the generated examples are trimmed to fit, then the covering set and
// the special terms together.
import { coveringCosts } from '../material/covering-set.ts';
import { HAZARD_CLASSES, hazardProbes } from '../material/hazard-terms.ts';
import { noMatchTerm } from '../material/search-term.ts';
import { requestKind } from '../model/listing-query.ts';
import type { RunPlan } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';
import type { RunScope } from './run-scope.ts';

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
 * The share of the time left the estimate may fill: rechecks, re-sends, a listing that moves and a machine shared with
 * other work need the rest (the planned checks have taken over 1.25 times their estimate, see docs/contract.md); a
 * plan trimmed judges more in what is left once its checks end (see extend-plan.ts), where a batch the deadline cuts
 * costs the verdict nothing.
 */
export const FILL = 0.6;
/** The seeded no-match term's index for the timed search: it scans everything a search can (no early stop). */
const TIMED_SEARCH = 7;

/** How much of the plan a run keeps: --examples, and the first requests of the covering set and special terms. */
export interface Breadth {
  readonly examples: number;
  readonly covering: number;
  readonly specialTerms: number;
}

/** A run's plan, and what it was made from: the breadth asked and used, and the estimate of any breadth in ms. */
export interface Planned {
  readonly plan: RunPlan;
  readonly asked: Breadth;
  readonly used: Breadth;
  readonly cost: (breadth: Breadth) => number;
}

/**
 * Times one search per listing (a term nothing holds, so the target reads all it searches), estimates the rest of
 * the run with searches one at a time (what the run can count on: the extension takes what the target gives beyond
 * it, see extend-plan.ts), and returns the plan:
 * as asked when it fits 60% of the time left (FILL); else --examples trimmed to the most that fit (at least 1); else,
 * with 1 example, the covering set and the special terms trimmed together to the most that fit, down to every
 * class of each once; with why.
 *
 * @example
 * const { plan } = await planRun(scope, runs, performance.now() - startedAt);
 * if (plan.why) console.log(plan.why); // examples 50 -> 1, covering set 112 -> 40, special terms 50 -> 18: ...
 */
export async function planRun(scope: RunScope, runs: readonly OperationRun[], elapsedMs: number): Promise<Planned> {
  const first = await timeSearches(scope, runs);
  let searchMs = first;
  const unloaded = scope.client.limit?.unloaded();
  const kindOf = requestKind(runs.map(({ operation }) => operation));
  const pageMs = Math.max(0, ...runs.map(({ operation }) => unloaded?.get(kindOf(operation.path, {})) ?? 0));
  const coverings = runs.map(({ context }) => coveringCosts(context.parameters));
  const cost = ({ examples, covering, specialTerms }: Breadth) =>
    searchMs.reduce((total, ms, i) => {
      const { prefixes } = coverings[i]!;
      const judged = prefixes[Math.min(covering, prefixes.length - 1)]!;
      const searches = PLAN_REQUESTS.search.fixed + PLAN_REQUESTS.search.perExample * examples + judged.searches + specialTerms;
      const pages = PLAN_REQUESTS.page.fixed + PLAN_REQUESTS.page.perExample * examples + judged.pages;
      return total + searches * ms + pages * pageMs;
    }, 0);
  const asked: Breadth = {
    examples: scope.settings.examples,
    covering: scope.settings.covering ?? Math.max(...coverings.map((c) => c.prefixes.length - 1)),
    specialTerms: scope.settings.specialTerms ?? hazardProbes().length,
  };
  const room = FILL * Math.max(0, scope.maxDurationMs - elapsedMs);
  const fits = (breadth: Breadth) => cost(breadth) <= room;
  // One answer slowed by a stall (a pause here, a hiccup on the way) must not trim the whole run: a trim is timed
  // again, and the faster of the two stands, as a target that is slow is slow both times.
  if (!fits(asked)) searchMs = (await timeSearches(scope, runs)).map((ms, i) => Math.min(ms, first[i]!));
  const used = fits(asked) ? asked : trimmed(asked, fits, Math.max(...coverings.map((c) => c.everyClass)));
  const plan = {
    examples: { asked: asked.examples, used: used.examples },
    covering: { asked: asked.covering, used: used.covering },
    specialTerms: { asked: asked.specialTerms, used: used.specialTerms },
    estimateMs: Math.round(cost(used)),
  };
  if (used === asked) return { plan, asked, used, cost };
  const parts = [
    `examples ${asked.examples} -> ${used.examples}`,
    ...(used.covering !== asked.covering ? [`covering set ${asked.covering} -> ${used.covering}`] : []),
    ...(used.specialTerms !== asked.specialTerms ? [`special terms ${asked.specialTerms} -> ${used.specialTerms}`] : []),
  ].join(', ');
  const search = `a search takes ${seconds(Math.max(...searchMs))} here`;
  const whole = Math.ceil((cost(asked) / FILL + elapsedMs) / 60_000) * 60;
  return {
    asked,
    used,
    cost,
    plan: {
      ...plan,
      why: why(fits(used), parts, search, cost(used) + elapsedMs, scope.maxDurationMs, whole),
    },
  };
}

/** One search per listing timed, for a term nothing holds; one that got no answer took at least the timeout. */
async function timeSearches(scope: RunScope, runs: readonly OperationRun[]): Promise<number[]> {
  const timed = await Promise.all(
    runs.map(async ({ context }) => {
      // On a connection of its own where the client can choose: a server keeping state per connection (a
      // search, a replica) must not carry the timing read into the pages the checks read.
      const query = { [context.parameters.search.name]: noMatchTerm(scope.settings.seed, TIMED_SEARCH) };
      const exchange = context.sendOnOneConnection ? (await context.sendOnOneConnection([{ query }]))[0] : await context.send(query);
      return exchange?.response?.durationMs;
    }),
  );
  return timed.map((ms) => ms ?? scope.options.timeoutMs);
}

/** Why the plan was trimmed: what, the search that made it, and when it does not fit even so, the budget that would. */
function why(fits: boolean, parts: string, search: string, needsMs: number, hasMs: number, whole: number): string {
  return fits
    ? `${parts}: ${search}`
    : `${parts}, and the run still needs about ${seconds(needsMs)} of the ${seconds(hasMs)} it has: ${search}; --max-duration ${whole} gives the whole run`;
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
  const share = (covering: number): Breadth => ({ examples, covering, specialTerms: Math.max(fewestTerms, termsAt(asked, covering)) });
  for (let covering = asked.covering; covering > fewestCovering; covering -= 1) if (fits(share(covering))) return share(covering);
  return { examples, covering: fewestCovering, specialTerms: fewestTerms };
}

/**
 * The special terms at the covering set's share of `asked`: a plan trimmed, or extended, keeps both in step.
 *
 * @example
 * termsAt({ examples: 1, covering: 112, specialTerms: 50 }, 56); // 25
 */
export const termsAt = (asked: Breadth, covering: number) => Math.ceil((asked.specialTerms * covering) / Math.max(1, asked.covering));

const seconds = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 1000).toFixed(1)} s`);
