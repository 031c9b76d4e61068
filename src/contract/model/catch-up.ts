// Search served from an index refreshed apart from the data (as Elasticsearch and most search services are): a
// record that arrived a moment ago may not be found yet. What the kit waits for it, per listing.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long one listing's searches may be waited on in all: an index refreshed every second catches up within it. */
export const CATCH_UP_MS = 3_000;
/** The first wait; each next one doubles, within what is left of the budget. */
const FIRST_WAIT_MS = 100;

/** Looks at a search again after waits, within one budget per listing, and remembers the longest lag seen. */
export interface CatchUp {
  /**
   * Waits and asks `caughtUp` again, the waits doubling, until it says yes or the listing's budget is spent:
   * resolves with the time waited when it caught up, else undefined.
   */
  lookAgain(caughtUp: () => Promise<boolean>): Promise<number | undefined>;
  /** The longest wait after which a search caught up, in ms (undefined when none had to). */
  lagSeen(): number | undefined;
  /**
   * Whether the listing's search index catches up, asked once per listing: the first time, `caughtUp` is looked
   * at again (as {@link lookAgain}); later, what it told then. An index behind by records that arrived is a lag
   * only when it catches up: one that never takes them in gets no such excuse.
   */
  catchesUp(caughtUp: () => Promise<boolean>): Promise<boolean>;
  /** Notes a search answered as if the `records` newest records had not arrived yet (an index behind them). */
  noteBehind(records: number): void;
  /** The most records a search was seen behind by (undefined when none was). */
  behindSeen(): number | undefined;
}

/**
 * A catch-up budget for one listing.
 *
 * @example
 * const lag = await context.catchUp.lookAgain(async () => found(await context.send(query)));
 * if (lag !== undefined) return { kind: 'pass' };
 */
export function createCatchUp(budgetMs = CATCH_UP_MS): CatchUp {
  let left = budgetMs;
  let seen: number | undefined;
  let behind: number | undefined;
  let told: Promise<boolean> | undefined;
  return {
    catchesUp(caughtUp) {
      told ??= this.lookAgain(caughtUp).then((waited) => waited !== undefined);
      return told;
    },
    noteBehind: (records) => {
      behind = Math.max(behind ?? 0, records);
    },
    behindSeen: () => behind,
    async lookAgain(caughtUp) {
      let waited = 0;
      for (let wait = FIRST_WAIT_MS; left > 0; wait *= 2) {
        const now = Math.min(wait, left);
        left -= now;
        await sleep(now);
        waited += now;
        if (await caughtUp()) {
          seen = Math.max(seen ?? 0, waited);
          return waited;
        }
      }
      return undefined;
    },
    lagSeen: () => seen,
  };
}
