import { describe, expect, it } from 'vitest';
import { coveringCosts } from '../../../src/contract/material/covering-set.ts';
import { hazardProbes } from '../../../src/contract/material/hazard-terms.ts';
import { noMatchTerm } from '../../../src/contract/material/search-term.ts';
import { FILL, PARALLEL_GAIN_COUNTED, PLAN_REQUESTS, planCost, planRun } from '../../../src/contract/run/plan-run.ts';
import { SENT_ALONE_CAP } from '../../../src/contract/client/send-alone.ts';
import { listingParameters } from '../../../src/spec/listing-parameters.ts';
import type { OperationRun } from '../../../src/contract/run/operation-runs.ts';
import type { RunScope } from '../../../src/contract/run/run-scope.ts';
import type { Exchange } from '../../../src/contract/types.ts';
import { defaultApp, LISTINGS, runInProcess } from '../../helpers.ts';

/**
 * Two listings whose timed searches take `searchMs` (the short term) and `secondMs` (the long one) alone and `pairMs` two at once (by default as
 * long: a target running two at once), a plain page 35 ms with 2 at once; `sent` gets each query.
 */
function target(searchMs: number, sent: Record<string, string>[] = [], pairMs = searchMs, secondMs = searchMs) {
  const runs = ['/alert', '/sensor'].map((path) => ({
    operation: LISTINGS.find((op) => op.path === path)!,
    context: {
      parameters: listingParameters(LISTINGS.find((op) => op.path === path)!),
      send: async (query: Record<string, string>) => {
        sent.push(query);
        const alone = new Map([
          [noMatchTerm(42, 7, 4), searchMs],
          [noMatchTerm(42, 10), secondMs],
        ]);
        const durationMs = alone.get(query.search!) ?? pairMs;
        return { response: { status: 200, headers: {}, text: '[]', durationMs } } as unknown as Exchange;
      },
    },
  })) as unknown as OperationRun[];
  const scope = {
    settings: { examples: 50, seed: 42 },
    options: { timeoutMs: 10_000 },
    maxDurationMs: 300_000,
    client: {
      limit: {
        current: () => 2,
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

/** Searches priced at what two at once measured: half their gain over one after the other. */
const priced = (measured: number) => 1 + (measured - 1) * PARALLEL_GAIN_COUNTED;
/** The estimate the plan makes at these latencies, both listings: searches `measured` and pages 2 at once by default. */
const estimate = (examples: number, searchMs: number, breadth: { covering?: number; specialTerms?: number } = {}, measured = 2) =>
  2 * ((planned(examples, breadth).search * searchMs) / priced(measured) + (planned(examples, breadth).page * 35) / 2);
/** The time the estimate may fill: FILL of what is left after the run's first second. */
const ROOM = FILL * 299_000;
const elapsed = () => 1_000;

describe('a run planned to fit --max-duration', () => {
  it('keeps --examples when the estimate fits, after timed searches per listing for terms nothing holds, one alone and two at once', async () => {
    const sent: Record<string, string>[] = [];
    const { runs, scope } = target(300, sent);
    const plan = await planRun(scope, runs, elapsed);
    expect(plan).toEqual({
      examples: { asked: 50, used: 50 },
      covering: { asked: ALL.covering, used: ALL.covering },
      specialTerms: { asked: ALL.specialTerms, used: ALL.specialTerms },
      estimateMs: Math.round(estimate(50, 300)),
    });
    expect(sent).toHaveLength(8);
    expect(new Set(sent.map((q) => q.search)).size).toBe(4);
    // Alone, a short term then a long one, per listing side by side.
    expect(sent.slice(0, 2).map((q) => q.search)).toEqual([
      expect.stringMatching(/^zq[b-df-hj-np-tv-xz0-9]{4}$/),
      expect.stringMatching(/^zq[b-df-hj-np-tv-xz0-9]{4}$/),
    ]);
    expect(sent[2]!.search).toMatch(/^zq[b-df-hj-np-tv-xz0-9]{24}$/);
  });

  it('trims the examples to the most that fit FILL (90%) of the time left, and says why', async () => {
    const { runs, scope } = target(900);
    const plan = await planRun(scope, runs, elapsed);
    const fits = Array.from({ length: 50 }, (_, i) => 50 - i).find((e) => estimate(e, 900) <= ROOM)!;
    expect(fits).toBeGreaterThan(1);
    expect(fits).toBeLessThan(50);
    expect(plan).toMatchObject({
      examples: { asked: 50, used: fits },
      covering: { asked: ALL.covering, used: ALL.covering },
      specialTerms: { asked: ALL.specialTerms, used: ALL.specialTerms },
      estimateMs: Math.round(estimate(fits, 900)),
      why: `examples 50 -> ${fits}: a search takes 0.9 s, 1.5 at once here`,
    });
  });

  it('then trims the covering set and the special terms together, at one example, to the most that fit, and says why', async () => {
    const { runs, scope } = target(3_600);
    const plan = await planRun(scope, runs, elapsed);
    expect(estimate(1, 3_600)).toBeGreaterThan(ROOM);
    const { covering: k, specialTerms: s } = plan;
    expect(plan.examples).toEqual({ asked: 50, used: 1 });
    expect(k.used).toBeLessThan(k.asked);
    expect(k.used).toBeGreaterThanOrEqual(covering.everyClass);
    // The same share of each, and the most that fit: one more covering request would not.
    expect(s.used).toBe(Math.max(11, Math.ceil((s.asked * k.used) / k.asked)));
    const breadth = (n: number) => ({ covering: n, specialTerms: Math.max(11, Math.ceil((s.asked * n) / k.asked)) });
    expect(estimate(1, 3_600, breadth(k.used))).toBeLessThanOrEqual(ROOM);
    expect(estimate(1, 3_600, breadth(k.used + 1))).toBeGreaterThan(ROOM);
    expect(plan.why).toBe(
      `examples 50 -> 1, covering set ${k.asked} -> ${k.used}, special terms ${s.asked} -> ${s.used}: a search takes 3.6 s, 1.5 at once here`,
    );
  });

  it('says how long the whole run would take, and the flag that gives it, when even every class once does not fit', async () => {
    // Two at once take twice as long: the target runs one search at a time.
    const { runs, scope } = target(6_000, [], 12_000);
    const plan = await planRun(scope, runs, elapsed);
    const least = { covering: covering.everyClass, specialTerms: 11 };
    expect(plan).toMatchObject({ examples: { used: 1 }, covering: { used: least.covering }, specialTerms: { used: 11 } });
    const minutes = Math.ceil((estimate(50, 6_000, {}, 1) / FILL + 1_000) / 60_000);
    expect(plan.why).toBe(
      `examples 50 -> 1, covering set ${ALL.covering} -> ${least.covering}, special terms ${ALL.specialTerms} -> 11, and the run still needs about ${Math.round((estimate(1, 6_000, least, 1) + 1_000) / 60_000)} min of the 5 min it has: a search takes 6.0 s, 1.0 at once here; --max-duration ${minutes * 60} gives the whole run`,
    );
  });

  it('prices searches at half what two at once gained: two at once in 1.5 times one alone is 1.3 at once measured, 1.2 priced', async () => {
    const { runs, scope } = target(3_000, [], 4_500);
    const plan = await planRun(scope, runs, elapsed);
    expect(plan.why).toMatch(/a search takes 3\.0 s, 1\.2 at once here$/);
    expect(plan.estimateMs).toBeLessThanOrEqual(ROOM);
    expect(plan.estimateMs).toBe(
      Math.round(
        estimate(
          1,
          3_000,
          plan.covering.used === ALL.covering ? {} : { covering: plan.covering.used, specialTerms: plan.specialTerms.used },
          4 / 3,
        ),
      ),
    );
  });

  it('prices searches at no more at once than the limit of searches holds after the timing', async () => {
    const { runs, scope } = target(3_600);
    const held = (kind: string) => (kind.endsWith(' search') ? 1 : 2);
    const limited = { ...scope, client: { limit: { ...scope.client.limit!, current: held } } } as unknown as RunScope;
    const plan = await planRun(limited, runs, elapsed);
    // Two at once took as long as one, but the run will send them one at a time: priced so.
    expect(plan.why).toMatch(/a search takes 3\.6 s, 1\.0 at once here$/);
    const breadth = { covering: plan.covering.used, specialTerms: plan.specialTerms.used };
    expect(plan.estimateMs).toBe(Math.round(estimate(1, 3_600, breadth, 1)));
  });

  it('prices a search at the mean of a short term and a long one timed alone', async () => {
    // Two at once took twice the price each: one at a time.
    const plan = await planRun(target(1_000, [], 4_000, 3_000).scope, target(1_000, [], 4_000, 3_000).runs, elapsed);
    expect(plan.why).toMatch(/a search takes 2\.0 s, 1\.0 at once here$/);
  });

  it('takes a short term slower than the long one for a busy moment: the long one prices both, and the run is not trimmed for it', async () => {
    const busy = await planRun(target(3_600, [], 3_600, 1_200).scope, target(3_600, [], 3_600, 1_200).runs, elapsed);
    const quiet = await planRun(target(1_200, [], 3_600).scope, target(1_200, [], 3_600).runs, elapsed);
    expect(busy).toEqual(quiet);
    // Priced at 1.2 s, not 3.6 s: the pair took 3 times one alone, so one at a time.
    expect(busy.why).toMatch(/a search takes 1\.2 s, 1\.0 at once here$/);
  });

  it('prices a search that got no answer at the timeout, and again at the timeout for its re-send alone', () => {
    const page = { ms: 20, atOnce: 4 };
    expect(planCost({ searches: 40, pages: 100 }, { aloneMs: 6_000, atOnce: 2 }, page, 10_000)).toBe(40 * 3_000 + 500);
    expect(planCost({ searches: 10, pages: 0 }, { aloneMs: undefined, atOnce: 1 }, page, 10_000)).toBe(10 * 10_000 + 10 * 10_000);
    // Past the run's cap of re-sends alone, a search costs its timeout only.
    expect(planCost({ searches: 50, pages: 0 }, { aloneMs: undefined, atOnce: 1 }, page, 10_000)).toBe(
      50 * 10_000 + SENT_ALONE_CAP * 10_000,
    );
  });

  it('trims from what was asked: --covering and --special-terms given are the most it keeps', async () => {
    const { runs, scope } = target(300);
    const plan = await planRun({ ...scope, settings: { ...scope.settings, covering: 30, specialTerms: 12 } } as RunScope, runs, elapsed);
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
      const total = (kinds: ReturnType<typeof of>) =>
        kinds.reduce((n, k) => n + (k.alone?.count ?? 0) + (k.underLoad?.count ?? 0) + k.failed, 0) / 2;
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
