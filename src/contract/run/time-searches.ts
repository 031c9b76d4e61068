// What a search costs on this target, for the plan: two alone per listing, one after the other (a term nothing
// holds, so the target reads all it searches; the faster counts, as a single reading can be a busy moment's),
// then two at once: a database without a search index runs a few at once (one per core it gives them), and a
// plan that counted them one after another used half its time on a fast machine.
import { NEAR_TIMEOUT } from '../client/kind-limit.ts';
import { noMatchTerm } from '../material/search-term.ts';
import type { Exchange } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';

/** The seeded no-match terms' indexes for the timed searches: the two alone, then the two sent at once. */
const ALONE = [7, 10] as const;
const AT_ONCE = [8, 9] as const;

/** A listing's search on this target: its time alone (undefined: no answer) and how many the target runs at once. */
export interface SearchTiming {
  readonly aloneMs: number | undefined;
  /** Searches the target runs at once without slowing each (1 to 2, from two sent together). */
  readonly atOnce: number;
}

/**
 * Times two searches per listing alone (the faster counts), then two at once; the listings side by side. A
 * search alone that got no answer is not followed by the others, nor one of which two would near the timeout
 * one after another (over 40% of `timeoutMs` alone). `atOnce` is 2 when the two
 * took as long as one alone, 1 when each took twice as long (or either got no answer), and between in between.
 *
 * @example
 * const [alerts] = await timeSearches(runs, 42, 10_000); // { aloneMs: 3300, atOnce: 1.9 }
 */
export function timeSearches(runs: readonly OperationRun[], seed: number, timeoutMs: number): Promise<SearchTiming[]> {
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
      const first = await search(ALONE[0])();
      if (first === undefined) return { aloneMs: first, atOnce: 1 };
      const second = await search(ALONE[1])();
      const aloneMs = Math.min(first, second ?? first);
      // Two that would near the timeout one after another are not sent at once: a target running one at a time
      // would time the second out, a finding of nothing but the kit's own timing. Such searches go one at a time.
      if (2 * aloneMs > NEAR_TIMEOUT * timeoutMs) return { aloneMs, atOnce: 1 };
      const pair = await Promise.all(AT_ONCE.map((index) => search(index)()));
      const slowest = pair.some((ms) => ms === undefined) ? Number.POSITIVE_INFINITY : Math.max(...(pair as number[]));
      return { aloneMs, atOnce: Math.min(2, Math.max(1, (2 * aloneMs) / Math.max(1, slowest))) };
    }),
  );
}
