import { describe, expect, it } from 'vitest';
import { PLAN_REQUESTS, planRun } from '../../../src/contract/run/plan-run.ts';
import type { OperationRun } from '../../../src/contract/run/operation-runs.ts';
import type { RunScope } from '../../../src/contract/run/run-scope.ts';
import type { Exchange } from '../../../src/contract/types.ts';
import { defaultApp, LISTINGS, runInProcess } from '../../helpers.ts';

/** Two listings whose timed search takes `searchMs`, a plain page 35 ms; `sent` gets each query. */
function target(searchMs: number, sent: Record<string, string>[] = []) {
  const runs = ['/alert', '/sensor'].map((path) => ({
    operation: LISTINGS.find((op) => op.path === path)!,
    context: {
      parameters: { search: { name: 'search' } },
      send: async (query: Record<string, string>) => {
        sent.push(query);
        return { response: { status: 200, headers: {}, text: '[]', durationMs: searchMs } } as unknown as Exchange;
      },
    },
  })) as unknown as OperationRun[];
  const scope = {
    settings: { examples: 50, seed: 42 },
    options: {},
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

/** The estimate the plan makes for `examples` at these latencies, both listings. */
const estimate = (examples: number, searchMs: number, pageMs = 35) =>
  2 *
  ((PLAN_REQUESTS.search.fixed + PLAN_REQUESTS.search.perExample * examples) * searchMs +
    (PLAN_REQUESTS.page.fixed + PLAN_REQUESTS.page.perExample * examples) * pageMs);

describe('a run planned to fit --max-duration', () => {
  it('keeps --examples when the estimate fits, after one timed search per listing for a term nothing holds', async () => {
    const sent: Record<string, string>[] = [];
    const { runs, scope } = target(300, sent);
    const plan = await planRun(scope, runs, 1_000);
    expect(plan).toEqual({ examples: { asked: 50, used: 50 }, estimateMs: Math.round(estimate(50, 300)) });
    expect(sent).toHaveLength(2);
    expect(sent[0]!.search).toMatch(/^zq[b-df-hj-np-tv-xz0-9]{24}$/);
  });

  it('trims the examples to the most that fit 80% of the time left, and says why', async () => {
    const { runs, scope } = target(700);
    const plan = await planRun(scope, runs, 1_000);
    const fits = Array.from({ length: 50 }, (_, i) => 50 - i).find((e) => estimate(e, 700) <= 0.8 * 299_000)!;
    expect(fits).toBeGreaterThan(1);
    expect(fits).toBeLessThan(50);
    expect(plan).toEqual({
      examples: { asked: 50, used: fits },
      estimateMs: Math.round(estimate(fits, 700)),
      why: `examples 50 -> ${fits}: a search takes 0.7 s here`,
    });
  });

  it('says how long the whole run would take, and the flag that gives it, when even 1 example does not fit', async () => {
    const { runs, scope } = target(1_800);
    const plan = await planRun(scope, runs, 1_000);
    expect(plan.examples).toEqual({ asked: 50, used: 1 });
    const minutes = Math.ceil((estimate(50, 1_800) / 0.8 + 1_000) / 60_000);
    expect(plan.why).toBe(
      `examples 50 -> 1, and the run still needs about ${Math.round((estimate(1, 1_800) + 1_000) / 60_000)} min of the 5 min it has: a search takes 1.8 s here; --max-duration ${minutes * 60} gives the whole run`,
    );
  });

  it("counts the requests a run sends as the kit's own plan does (within 10%), per listing", async () => {
    const counts = async (examples: number) => {
      const report = await runInProcess((request) => app.fetch(request), { seed: 42, examples });
      const of = (kind: string) => report.timing!.kinds.filter((k) => k.kind.endsWith(kind));
      const total = (kinds: ReturnType<typeof of>) =>
        kinds.reduce((n, k) => n + (k.alone?.count ?? 0) + (k.underLoad?.count ?? 0) + k.failed, 0) / 2;
      return { search: total(of(' search')), page: total([...of(' page'), ...of(' page far in')]) };
    };
    const app = defaultApp();
    for (const examples of [1, 50]) {
      const seen = await counts(examples);
      for (const kind of ['search', 'page'] as const) {
        const planned = PLAN_REQUESTS[kind].fixed + PLAN_REQUESTS[kind].perExample * examples;
        expect(Math.abs(seen[kind] - planned) / planned, `${kind} at --examples ${examples}: ${seen[kind]}`).toBeLessThanOrEqual(0.1);
      }
    }
  });
});
