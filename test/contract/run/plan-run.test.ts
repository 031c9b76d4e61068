import { describe, expect, it } from 'vitest';
import { coveringCosts } from '../../../src/contract/material/covering-set.ts';
import { hazardProbes } from '../../../src/contract/material/hazard-terms.ts';
import { withDefaults } from '../../../src/contract/options/contract-flags.ts';
import { FILL, PLAN_REQUESTS, planRun } from '../../../src/contract/run/plan-run.ts';
import { listingParameters } from '../../../src/spec/listing-parameters.ts';
import type { OperationRun } from '../../../src/contract/run/operation-runs.ts';
import type { RunScope } from '../../../src/contract/run/run-scope.ts';
import type { Exchange } from '../../../src/contract/types.ts';
import { defaultApp, LISTINGS, runInProcess, spec } from '../../helpers.ts';

/**
 * Two listings whose timed search takes `searchMs`, a plain page 35 ms; `sent` gets each query; the run sends at most
 * `concurrency` requests at once.
 */
function target(searchMs: number, sent: Record<string, string>[] = [], concurrency = 1) {
  const answer = (query: Record<string, string>) => {
    sent.push(query);
    return { response: { status: 200, headers: {}, text: '[]', durationMs: searchMs } } as unknown as Exchange;
  };
  const runs = ['/alert', '/sensor'].map((path) => ({
    operation: LISTINGS.find((op) => op.path === path)!,
    context: {
      parameters: listingParameters(LISTINGS.find((op) => op.path === path)!),
      send: async (query: Record<string, string>) => answer(query),
    },
  })) as unknown as OperationRun[];
  const scope = {
    settings: { examples: 50, seed: 42, concurrency },
    // Settled as a run's are: the default --timeout among them.
    options: withDefaults({ target: 'http://target.test', document: spec.document }),
    maxDurationMs: 300_000,
    client: {
      limit: {
        unloaded: () =>
          new Map([
            ['/alert page', 35],
            ['/sensor page', 35],
          ]),
      },
    },
  } as unknown as RunScope;
  return { runs, scope };
}

const covering = coveringCosts(listingParameters(LISTINGS[0]!));
const ALL = { covering: covering.prefixes.length - 1, specialTerms: hazardProbes().length };

/** The requests the plan counts per listing, by kind, for a breadth (all of the covering set and terms by default). */
const planned = (examples: number, { covering: k = ALL.covering, specialTerms = ALL.specialTerms } = {}) => ({
  search: PLAN_REQUESTS.search.fixed + PLAN_REQUESTS.search.perExample * examples + covering.prefixes[k]!.searches + specialTerms,
  page: PLAN_REQUESTS.page.fixed + PLAN_REQUESTS.page.perExample * examples + covering.prefixes[k]!.pages,
});

/** The estimate the plan makes at these latencies, both listings. */
const estimate = (examples: number, searchMs: number, breadth: { covering?: number; specialTerms?: number } = {}, pageMs = 35) =>
  2 * (planned(examples, breadth).search * searchMs + planned(examples, breadth).page * pageMs);

describe('a run planned to fit --max-duration', () => {
  it('keeps --examples when the estimate fits, after one timed search per listing for a term nothing holds', async () => {
    const sent: Record<string, string>[] = [];
    const { runs, scope } = target(300, sent);
    const { plan } = await planRun(scope, runs, 1_000);
    expect(plan).toEqual({
      examples: { asked: 50, used: 50 },
      covering: { asked: ALL.covering, used: ALL.covering },
      specialTerms: { asked: ALL.specialTerms, used: ALL.specialTerms },
      estimateMs: Math.round(estimate(50, 300)),
    });
    expect(sent).toHaveLength(2);
    expect(sent[0]!.search).toMatch(/^zq[b-df-hj-np-tv-xz0-9]{24}$/);
  });

  it('trims the examples to the most that fit FILL (60%) of the time left, and says why', async () => {
    const { runs, scope } = target(420);
    const { plan } = await planRun(scope, runs, 1_000);
    const fits = Array.from({ length: 50 }, (_, i) => 50 - i).find((e) => estimate(e, 420) <= FILL * 299_000)!;
    expect(fits).toBeGreaterThan(1);
    expect(fits).toBeLessThan(50);
    expect(plan).toMatchObject({
      examples: { asked: 50, used: fits },
      covering: { asked: ALL.covering, used: ALL.covering },
      specialTerms: { asked: ALL.specialTerms, used: ALL.specialTerms },
      estimateMs: Math.round(estimate(fits, 420)),
      why: `examples 50 -> ${fits}: a search takes 0.4 s here`,
    });
  });

  it('then trims the covering set and the special terms together, at one example, to the most that fit, and says why', async () => {
    const { runs, scope } = target(1_800);
    const { plan } = await planRun(scope, runs, 1_000);
    expect(estimate(1, 1_800)).toBeGreaterThan(FILL * 299_000);
    const { covering: k, specialTerms: s } = plan;
    expect(plan.examples).toEqual({ asked: 50, used: 1 });
    expect(k.used).toBeLessThan(k.asked);
    expect(k.used).toBeGreaterThanOrEqual(covering.everyClass);
    // The same share of each, and the most that fit: one more covering request would not.
    expect(s.used).toBe(Math.max(11, Math.ceil((s.asked * k.used) / k.asked)));
    const breadth = (n: number) => ({ covering: n, specialTerms: Math.max(11, Math.ceil((s.asked * n) / k.asked)) });
    expect(estimate(1, 1_800, breadth(k.used))).toBeLessThanOrEqual(FILL * 299_000);
    expect(estimate(1, 1_800, breadth(k.used + 1))).toBeGreaterThan(FILL * 299_000);
    expect(plan.why).toBe(
      `examples 50 -> 1, covering set ${k.asked} -> ${k.used}, special terms ${s.asked} -> ${s.used}: a search takes 1.8 s here`,
    );
  });

  it('says how long the whole run would take, and the flag that gives it, when even every class once does not fit', async () => {
    const { runs, scope } = target(6_000);
    const { plan } = await planRun(scope, runs, 1_000);
    const least = { covering: covering.everyClass, specialTerms: 11 };
    expect(plan).toMatchObject({ examples: { used: 1 }, covering: { used: least.covering }, specialTerms: { used: 11 } });
    const minutes = Math.ceil((estimate(50, 6_000) / FILL + 1_000) / 60_000);
    expect(plan.why).toBe(
      `examples 50 -> 1, covering set ${ALL.covering} -> ${least.covering}, special terms ${ALL.specialTerms} -> 11, and the run still needs about ${Math.round((estimate(1, 6_000, least) + 1_000) / 60_000)} min of the 5 min it has: a search takes 6.0 s here; --max-duration ${minutes * 60} gives the whole run`,
    );
  });

  it('prices searches one at a time, with many in flight too: one search timed per listing, no more', async () => {
    const sent: Record<string, string>[] = [];
    const wide = target(300, sent, 8);
    const { plan } = await planRun(wide.scope, wide.runs, 1_000);
    // One term timed on each listing, the same term: the run's requests depend on its seed and options only.
    expect(sent.map((q) => q.search)).toHaveLength(2);
    expect(new Set(sent.map((q) => q.search)).size).toBe(1);
    expect(plan.estimateMs).toBe(Math.round(estimate(50, 300)));
  });

  it('a trim is timed again: one search stalled (the first, 20 s) trims nothing when the next is fast; slow both times, it trims', async () => {
    const stalledOnce = (second: number) => {
      const sent: Record<string, string>[] = [];
      const { runs, scope } = target(0, sent);
      const timedAt = (query: Record<string, string>) => {
        sent.push(query);
        // Each listing's first timed search stalls; its second takes `second`.
        const ms = sent.filter((q) => q.search === query.search).length <= 2 ? 20_000 : second;
        return { response: { status: 200, headers: {}, text: '[]', durationMs: ms } } as unknown as Exchange;
      };
      const stalled = runs.map((r) => ({ ...r, context: { ...r.context, send: async (q: Record<string, string>) => timedAt(q) } }));
      return { runs: stalled as unknown as OperationRun[], scope, sent };
    };
    const fast = stalledOnce(35);
    const { plan } = await planRun(fast.scope, fast.runs, 1_000);
    expect(fast.sent).toHaveLength(4);
    expect(plan.why).toBeUndefined();
    expect(plan.estimateMs).toBe(Math.round(estimate(50, 35)));
    const slow = stalledOnce(20_000);
    expect((await planRun(slow.scope, slow.runs, 1_000)).plan.examples.used).toBe(1);
  });

  it('trims from what was asked: --covering and --special-terms given are the most it keeps', async () => {
    const { runs, scope } = target(300);
    const { plan } = await planRun({ ...scope, settings: { ...scope.settings, covering: 30, specialTerms: 12 } } as RunScope, runs, 1_000);
    expect(plan).toMatchObject({ covering: { asked: 30, used: 30 }, specialTerms: { asked: 12, used: 12 } });
    expect(plan.why).toBeUndefined();
  });

  it("counts the requests a run sends as the kit's own plan does (within 10% or 5 requests), per listing, trimmed or not", async () => {
    const app = defaultApp();
    const breadths = [
      { examples: 1 },
      { examples: 50 },
      { examples: 1, covering: covering.everyClass, specialTerms: 11 },
      { examples: 1, covering: 70, specialTerms: 30 },
    ];
    for (const { examples, ...breadth } of breadths) {
      const report = await runInProcess((request) => app.fetch(request), { seed: 42, examples, ...breadth });
      const of = (kind: string) => report.timing!.kinds.filter((k) => k.kind.endsWith(kind));
      // Per listing: the spec's listings share their parameters, so each sends as many.
      const total = (kinds: ReturnType<typeof of>) =>
        kinds.reduce((n, k) => n + (k.alone?.count ?? 0) + (k.underLoad?.count ?? 0) + k.failed, 0) / LISTINGS.length;
      const seen = { search: total(of(' search')), page: total([...of(' page'), ...of(' page far in')]) };
      for (const kind of ['search', 'page'] as const) {
        const counted = planned(examples, breadth)[kind];
        expect(
          Math.abs(seen[kind] - counted),
          `${kind} at ${JSON.stringify({ examples, ...breadth })}: ${seen[kind]} sent, ${counted} counted`,
        ).toBeLessThanOrEqual(Math.max(5, 0.1 * counted));
      }
    }
  });
});
