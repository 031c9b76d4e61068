// How many requests may be in flight, learned from the target: the ceiling is --concurrency, the start is low,
// and the limit follows latency per kind of request (a plain page, a page far in, a search), as Envoy's adaptive
// concurrency and Netflix's Vegas limiter do: latency well above what the kind takes unloaded is queueing.
import type { KindLimitFigures, LimitChange } from '../types.ts';
import { duration } from '../../shared/duration.ts';

export type { KindLimitFigures, LimitChange } from '../types.ts';

/** One request's end, as the limit learns from it. */
export interface LimitSample {
  /** The kind of request (see HttpClientOptions.requestKind): kinds differ by 50x on real backends. */
  readonly kind: string;
  readonly latencyMs: number;
  /** Requests in flight when it started, itself included. */
  readonly inFlight: number;
  /** Requests of its own kind in flight when it started, itself included (by default `inFlight`). */
  readonly kindInFlight?: number;
  /** It timed out, its connection was reset, or it got a 502/503/504: the target is overloaded, or worse. */
  readonly failed: boolean;
  /** It got a 502/503/504: load shed with `inFlight` in flight, so the limit stays below that from then on. */
  readonly shed?: boolean;
}

/** The limit of requests in flight of one client: one for all requests, and one of each kind under it. */
export interface ConcurrencyLimit {
  /** The most it may rise to: --concurrency. */
  readonly ceiling: number;
  /**
   * A 502/503/504 with at most `inFlight` in flight came back alone too: not load shed, so it no longer keeps the
   * limit below its load.
   */
  notShed(inFlight: number): void;
  /** Requests that may be in flight now, of all kinds. */
  current(): number;
  /** Requests of `kind` that may be in flight now: its own limit, under the limit of all. */
  currentOf(kind: string): number;
  /** Whether `latencyMs` is well above what `kind` takes unloaded (false while that is not known): queueing. */
  queueing(kind: string, latencyMs: number): boolean;
  /** Learns from a request's end. */
  sample(sample: LimitSample): void;
  /** Holds the limit at `limit` for good (after a 429: one request in flight). */
  pin(limit: number, why: string): void;
  /** The latency each kind takes unloaded (at most 2 in flight), in ms. */
  unloaded(): ReadonlyMap<string, number>;
  /** Each kind's own limit as it moved, by kind. */
  kinds(): ReadonlyMap<string, KindLimitFigures>;
  /** The changes so far, oldest first (the first {@link KEPT_CHANGES}; `changeCount` counts them all). */
  readonly changes: readonly LimitChange[];
  changeCount(): number;
}

const KEPT_CHANGES = 50;
/** Latency above `TOLERANCE` times the kind's unloaded latency, and `SLACK_MS` more, is queueing. */
const TOLERANCE = 2;
const SLACK_MS = 20;
/** Most of a kind's window above `HELD` times its unloaded latency (and `SLACK_MS`) holds it below that load. */
const HELD = 1.5;
/** At most this many in flight, a request's latency is its unloaded latency. */
export const ALONE_IN_FLIGHT = 2;

/** What a window of samples saw: 3 load shed at a new low, 2 a timeout, reset or 502/503/504, 1 queueing, 0 nothing. */
interface Worst {
  level: number;
  why: string;
}

/**
 * Creates a limit of all requests and one of each kind, each starting at 2 (or the ceiling, if lower) and judged
 * once per window of as many requests as it allows (so a burst of slow answers to requests sent before a change
 * counts once).
 * - The limit of all: a timeout, a reset or a 502/503/504 in the window halves it (and a 502/503/504 with n in
 *   flight keeps it below n from then on: a gateway shedding load past a limit of its own); else it rises by one,
 *   up to the ceiling.
 * - A kind's own limit: a failure of the kind halves it too; a request of the kind slower than twice (and 20 ms
 *   more than) the kind's unloaded latency lowers it by a quarter, and when most of the window was that slow with
 *   n of the kind in flight, it stays below n from then on (the parallelism the target gives that kind); else it
 *   rises by one, up to the limit of all. So seconds-long searches stay near what the target runs at once while
 *   pages go wide. A target far away whose latency does not grow with load keeps every kind at the ceiling.
 *
 * @example
 * const limit = createConcurrencyLimit(8);
 * limit.sample({ kind: '/alert search', latencyMs: 1800, inFlight: 1, failed: false });
 * limit.currentOf('/alert search'); // 2
 */
export function createConcurrencyLimit(ceiling: number): ConcurrencyLimit {
  const top = Math.max(1, Math.floor(ceiling));
  /** The requests in flight at each 502/503/504 that came at a new low: the limit stays below the fewest. */
  const sheds: number[] = [];
  const most = () => Math.min(top, ...sheds.map((n) => n - 1));
  const all = { limit: Math.min(2, top), since: 0, worst: { level: 0, why: '' } as Worst };
  let pinned = false;
  const unloaded = new Map<string, number>();
  const changes: LimitChange[] = [];
  let changeCount = 0;
  const log = (change: LimitChange) => {
    changeCount += 1;
    if (changes.length < KEPT_CHANGES) changes.push(change);
  };
  const change = (to: number, why: string) => {
    if (to === all.limit) return;
    log({ from: all.limit, to, why });
    all.limit = to;
  };
  const kinds = createKindLimits(top, log);
  const queueing = (base: number | undefined, latencyMs: number, tolerance = TOLERANCE) =>
    base !== undefined && latencyMs > base * tolerance + SLACK_MS;
  return {
    ceiling: top,
    current: () => all.limit,
    currentOf: (kind) => Math.min(all.limit, kinds.limitOf(kind)),
    queueing: (kind, latencyMs) => queueing(unloaded.get(kind), latencyMs),
    unloaded: () => unloaded,
    kinds: kinds.figures,
    changes,
    changeCount: () => changeCount,
    notShed(inFlight) {
      // The most in flight while it ran is at least what it started with: the largest such shed is its own.
      const own = Math.max(...sheds.filter((n) => n <= inFlight));
      if (Number.isFinite(own)) sheds.splice(sheds.indexOf(own), 1);
    },
    pin(to, why) {
      change(Math.max(1, Math.min(top, to)), why);
      pinned = true;
    },
    sample(sample) {
      if (pinned) return;
      const { kind, latencyMs, inFlight, failed, shed } = sample;
      const base = unloaded.get(kind);
      if (!failed && inFlight <= ALONE_IN_FLIGHT && (base === undefined || latencyMs < base)) unloaded.set(kind, latencyMs);
      const why = `took ${duration(latencyMs)} with ${sample.kindInFlight ?? inFlight} of its kind in flight, ${duration(base ?? 0)} alone`;
      const slow = !failed && queueing(base, latencyMs) ? why : undefined;
      kinds.sample(sample, { slow, over: !failed && queueing(base, latencyMs, HELD) }, all.limit);
      all.since += 1;
      if (shed && inFlight > 1 && inFlight <= most()) {
        all.worst = { level: 3, why: `a 502/503/504 with ${inFlight} in flight: at most ${inFlight - 1} from then on` };
        sheds.push(inFlight);
      }
      if (failed && all.worst.level < 2)
        all.worst = { level: 2, why: `a request ${shed ? 'got a 502/503/504' : 'timed out or was reset'} with ${inFlight} in flight` };
      if (all.since < all.limit) return;
      const seen = all.worst;
      all.worst = { level: 0, why: '' };
      all.since = 0;
      if (seen.level >= 2) change(Math.max(1, Math.min(most(), Math.floor(all.limit / 2))), seen.why);
      else if (all.limit < most()) change(all.limit + 1, 'latency held');
    },
  };
}

/** One kind's own limit and its current window. */
interface KindLimit {
  limit: number;
  lowest: number;
  highest: number;
  /** It stays below this: the fewest of its requests in flight at which most of a window was slow, or one failed. */
  hold: number;
  /** Samples in the current window. */
  since: number;
  /** Those of them over {@link HELD} times alone, and the fewest of the kind in flight among those. */
  over: number;
  overAt: number;
  /** The fewest of the kind in flight at a failure in the window. */
  failedAt: number;
  worst: Worst;
}

/** The kinds' own limits, each judged on its own window; `log` records their changes. */
function createKindLimits(top: number, log: (change: LimitChange) => void) {
  const kinds = new Map<string, KindLimit>();
  const start = Math.min(2, top);
  const change = (kind: string, k: KindLimit, to: number, why: string) => {
    if (to === k.limit) return;
    log({ from: k.limit, to, why: `${kind}: ${why}`, kind });
    k.limit = to;
    [k.lowest, k.highest] = [Math.min(k.lowest, to), Math.max(k.highest, to)];
  };
  return {
    limitOf: (kind: string) => kinds.get(kind)?.limit ?? start,
    figures: () =>
      new Map(
        [...kinds].map(([kind, k]) => [
          kind,
          { end: k.limit, lowest: k.lowest, highest: k.highest, ...(Number.isFinite(k.hold) ? { queuedAt: k.hold } : {}) },
        ]),
      ),
    /**
     * Learns from one of its requests: `slow` says why it queued (twice alone), when it did; `over`, whether it took
     * over {@link HELD} times alone; `allLimit` is the limit of all now.
     */
    sample(
      { kind, kindInFlight, inFlight, failed }: LimitSample,
      { slow, over }: { readonly slow: string | undefined; readonly over: boolean },
      allLimit: number,
    ) {
      const k = kinds.get(kind) ?? freshKind(start);
      kinds.set(kind, k);
      const own = kindInFlight ?? inFlight;
      k.since += 1;
      if (over) [k.over, k.overAt] = [k.over + 1, Math.min(k.overAt, own)];
      if (failed) k.failedAt = Math.min(k.failedAt, own);
      if (failed && k.worst.level < 2)
        k.worst = { level: 2, why: `a request timed out, was reset or got a 502/503/504 with ${own} of its kind in flight` };
      else if (slow && k.worst.level < 1) k.worst = { level: 1, why: slow };
      if (k.since < k.limit) return;
      // Most of the window slow, or a failure, with n of the kind in flight: the target gives the kind fewer than n.
      const at = Math.min(k.over * 2 >= k.since ? k.overAt : Number.POSITIVE_INFINITY, k.failedAt);
      if (at >= ALONE_IN_FLIGHT && at < k.hold) k.hold = at;
      const seen = k.worst;
      Object.assign(k, freshWindow());
      const most = Math.min(top, k.hold - 1);
      if (seen.level >= 2) change(kind, k, Math.max(1, Math.floor(k.limit / 2)), seen.why);
      else if (seen.level === 1 || k.limit > most)
        change(
          kind,
          k,
          Math.max(1, Math.min(most, Math.floor((k.limit * 3) / 4))),
          seen.why || `over ${HELD} times alone with ${at} of its kind in flight: at most ${most} from then on`,
        );
      // Never far above the limit of all: a kind held by it has not shown it could go wider.
      else if (k.limit < Math.min(most, allLimit + 1)) change(kind, k, k.limit + 1, 'latency held');
    },
  };
}

/** A kind not seen before: at the start, nothing held, an empty window. */
function freshKind(start: number): KindLimit {
  return { limit: start, lowest: start, highest: start, hold: Number.POSITIVE_INFINITY, ...freshWindow() };
}

/** A window with nothing seen yet. */
const freshWindow = () => ({
  since: 0,
  over: 0,
  overAt: Number.POSITIVE_INFINITY,
  failedAt: Number.POSITIVE_INFINITY,
  worst: { level: 0, why: '' },
});
