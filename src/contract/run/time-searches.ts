// What a search costs on this target, for the plan: two alone per listing, one after the other, both of terms
// nothing holds (so the target reads all it searches): one as short as most of the run's terms, one as long as its
// longest plain ones (a search's cost grows with its term's length where the database matches by pattern, and the
// run's terms range between); then two at once: a database without a search index runs a few at once (one per core
// it gives them), and a plan that counted them one after another used half its time on a fast machine.
import { NEAR_TIMEOUT } from '../client/kind-limit.ts';
import { noMatchTerm } from '../material/search-term.ts';
import type { Exchange } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';

/** The seeded no-match terms of the timed searches: the two alone (a short term, a long one), then the two at once. */
const ALONE = [
  { index: 7, length: 4 },
  { index: 10, length: 24 },
] as const;
const AT_ONCE = [8, 9] as const;

/** A listing's search on this target: its time alone (undefined: no answer) and how many the target runs at once. */
export interface SearchTiming {
  readonly aloneMs: number | undefined;
  /** Searches the target runs at once without slowing each (1 to 2, from two sent together). */
  readonly atOnce: number;
}

/**
 * Times two searches per listing alone, a short term and a long one, and prices a search at their mean (the
 * long one no faster than the short: a short one slower was a busy moment, and the long one's time counts for
 * both); then two at once; the listings side by side. A
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
      const search = (index: number, length?: number) => async () => {
        const query = { [context.parameters.search.name]: noMatchTerm(seed, index, length) };
        // On a connection of its own where the client can choose: a server keeping state per connection (a
        // search, a replica) must not carry the timing read into the pages the checks read.
        const exchange: Exchange | undefined = context.sendOnOneConnection
          ? (await context.sendOnOneConnection([{ query }]))[0]
          : await context.send(query);
        return exchange?.response?.durationMs;
      };
      const short = await search(ALONE[0].index, ALONE[0].length)();
      if (short === undefined) return { aloneMs: short, atOnce: 1 };
      const long = await search(ALONE[1].index, ALONE[1].length)();
      const aloneMs = long === undefined ? short : (Math.min(short, long) + long) / 2;
      // Two that would near the timeout one after another are not sent at once: a target running one at a time
      // would time the second out, a finding of nothing but the kit's own timing. Such searches go one at a time.
      if (2 * aloneMs > NEAR_TIMEOUT * timeoutMs) return { aloneMs, atOnce: 1 };
      const pair = await Promise.all(AT_ONCE.map((index) => search(index)()));
      const slowest = pair.some((ms) => ms === undefined) ? Number.POSITIVE_INFINITY : Math.max(...(pair as number[]));
      return { aloneMs, atOnce: Math.min(2, Math.max(1, (2 * aloneMs) / Math.max(1, slowest))) };
    }),
  );
}
