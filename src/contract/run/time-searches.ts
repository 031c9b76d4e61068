// What a search costs on this target, for the plan: one alone per listing (a term nothing holds, so the target
// reads all it searches), then two at once: a database without a search index runs a few at once (one per core
// it gives them), and a plan that counted them one after another used half its time on a fast machine.
import { noMatchTerm } from '../material/search-term.ts';
import type { Exchange } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';

/** The seeded no-match terms' indexes for the timed searches: alone, then the two sent at once. */
const ALONE = 7;
const AT_ONCE = [8, 9] as const;

/** A listing's search on this target: its time alone (undefined: no answer) and how many the target runs at once. */
export interface SearchTiming {
  readonly aloneMs: number | undefined;
  /** Searches the target runs at once without slowing each (1 to 2, from two sent together). */
  readonly atOnce: number;
}

/**
 * Times one search per listing alone, then two at once; the listings side by side. `atOnce` is 2 when the two
 * took as long as one alone, 1 when each took twice as long (or either got no answer), and between in between.
 *
 * @example
 * const [alerts] = await timeSearches(runs, 42); // { aloneMs: 5300, atOnce: 1.9 }
 */
export function timeSearches(runs: readonly OperationRun[], seed: number): Promise<SearchTiming[]> {
  return Promise.all(
    runs.map(async ({ context }) => {
      const search = (index: number) => async () => {
        const query = { [context.parameters.search.name]: noMatchTerm(seed, index) };
        // On a connection of its own where the client can choose: a server keeping state per connection (a
        // search, a replica) must not carry the timing read into the pages the checks read.
        const exchange: Exchange | undefined = context.sendOnOneConnection
          ? (await context.sendOnOneConnection([{ query }]))[0]
          : await context.send(query);
        return exchange?.response?.durationMs;
      };
      const aloneMs = await search(ALONE)();
      if (aloneMs === undefined) return { aloneMs, atOnce: 1 };
      const pair = await Promise.all(AT_ONCE.map((index) => search(index)()));
      const slowest = pair.some((ms) => ms === undefined) ? Number.POSITIVE_INFINITY : Math.max(...(pair as number[]));
      return { aloneMs, atOnce: Math.min(2, Math.max(1, (2 * aloneMs) / Math.max(1, slowest))) };
    }),
  );
}
