// How many requests may be in flight, learned from the target: the ceiling is --concurrency, the start is low;
// each kind of request (a plain page, a page far in, a search) has a limit of its own under the limit of all,
// following its own latency, as Envoy's adaptive concurrency and Netflix's Vegas limiter do: latency well above
// what the kind takes unloaded is queueing. Seconds-long searches stay near what the target runs at once while
// pages go wide; a timeout, a reset or load shed lowers the limit of all.
import type { LimitChange } from '../types.ts';
import { duration } from '../../shared/duration.ts';

export type { LimitChange } from '../types.ts';

/** One request's end, as the limit learns from it. */
export interface LimitSample {
  /** The kind of request (see HttpClientOptions.requestKind): kinds differ by 50x on real backends. */
  readonly kind: string;
  readonly latencyMs: number;
  /** Requests in flight when it started, itself included. */
  readonly inFlight: number;
  /** It timed out, its connection was reset, or it got a 502/503/504: the target is overloaded, or worse. */
  readonly failed: boolean;
  /** It got a 502/503/504: load shed with `inFlight` in flight, so the limit stays below that from then on. */
  readonly shed?: boolean;
}

/** The limit of requests in flight of one client. */
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
  of(kind: string): number;
  /** Each kind's own limit as it moved: now, lowest, highest, and the first reason it was lowered. */
  kinds(): ReadonlyMap<string, KindLimit>;
  /** Whether `latencyMs` is well above what `kind` takes unloaded (false while that is not known): queueing. */
  queueing(kind: string, latencyMs: number): boolean;
  /** Learns from a request's end. */
  sample(sample: LimitSample): void;
  /** Holds the limit at `limit` for good (after a 429: one request in flight). */
  pin(limit: number, why: string): void;
  /** The latency each kind takes unloaded (at most 2 in flight), in ms. */
  unloaded(): ReadonlyMap<string, number>;
  /** The changes so far, oldest first (the first {@link KEPT_CHANGES}; `changeCount` counts them all). */
  readonly changes: readonly LimitChange[];
  changeCount(): number;
}

/** One kind's own limit as it moved (see ConcurrencyLimit.kinds). */
export interface KindLimit {
  readonly now: number;
  readonly lowest: number;
  readonly highest: number;
  readonly lowered: number;
  readonly firstLowered?: string;
}

const KEPT_CHANGES = 50;
/** Latency above `TOLERANCE` times the kind's unloaded latency, and `SLACK_MS` more, is queueing. */
const TOLERANCE = 2;
const SLACK_MS = 20;
/** At most this many in flight, a request's latency is its unloaded latency. */
export const ALONE_IN_FLIGHT = 2;

/**
 * Creates a limit that starts at 2 (or the ceiling, if lower) and is judged once per window of as many requests
 * as the limit (so a burst of slow answers to requests sent before a change counts once): a timeout, a reset or a
 * 502/503/504 in the window halves it (and a 502/503/504 with n in flight keeps it below n from then on: a gateway
 * shedding load past a limit of its own); else it rises by one, up to the ceiling. Each kind's own limit moves the
 * same way on its own requests, and also drops by a quarter on a request slower than twice (and 20 ms more than)
 * the kind's unloaded latency: queueing. A target far away whose latency does not grow with load keeps the run at
 * the ceiling.
 *
 * @example
 * const limit = createConcurrencyLimit(8);
 * limit.sample({ kind: '/alert search', latencyMs: 1800, inFlight: 1, failed: false });
 * limit.of('/alert search'); // 2
 */
export function createConcurrencyLimit(ceiling: number): ConcurrencyLimit {
  const top = Math.max(1, Math.floor(ceiling));
  /** The requests in flight at each 502/503/504 that came at a new low: the limit stays below the fewest. */
  const sheds: number[] = [];
  const most = () => Math.min(top, ...sheds.map((n) => n - 1));
  const all = createWindowed(top, most);
  const kinds = new Map<string, ReturnType<typeof createWindowed>>();
  let pinned = false;
  const unloaded = new Map<string, number>();
  const queueing = (base: number | undefined, latencyMs: number) => base !== undefined && latencyMs > base * TOLERANCE + SLACK_MS;
  const kindOf = (kind: string) => {
    const own = kinds.get(kind) ?? createWindowed(top, () => top);
    kinds.set(kind, own);
    return own;
  };
  return {
    ceiling: top,
    current: all.current,
    of: (kind) => Math.min(all.current(), pinned ? 1 : kindOf(kind).current()),
    kinds: () => new Map([...kinds].map(([kind, own]) => [kind, own.figures()])),
    queueing: (kind, latencyMs) => queueing(unloaded.get(kind), latencyMs),
    unloaded: () => unloaded,
    changes: all.changes,
    changeCount: all.changeCount,
    notShed(inFlight) {
      // The most in flight while it ran is at least what it started with: the largest such shed is its own.
      const own = Math.max(...sheds.filter((n) => n <= inFlight));
      if (Number.isFinite(own)) sheds.splice(sheds.indexOf(own), 1);
    },
    pin(to, why) {
      all.change(Math.max(1, Math.min(top, to)), why);
      pinned = true;
    },
    sample({ kind, latencyMs, inFlight, failed, shed }) {
      if (pinned) return;
      let level = 0;
      let why = '';
      if (shed && inFlight > 1 && inFlight <= most()) {
        [level, why] = [3, `a 502/503/504 with ${inFlight} in flight: at most ${inFlight - 1} from then on`];
        sheds.push(inFlight);
      } else if (failed)
        [level, why] = [2, `a request ${shed ? 'got a 502/503/504' : 'timed out or was reset'} with ${inFlight} in flight`];
      const base = unloaded.get(kind);
      if (!failed && inFlight <= ALONE_IN_FLIGHT && (base === undefined || latencyMs < base)) unloaded.set(kind, latencyMs);
      all.sample(level, why);
      if (level === 0 && queueing(base, latencyMs))
        [level, why] = [1, `${kind} took ${duration(latencyMs)} with ${inFlight} in flight, ${duration(base!)} alone`];
      kindOf(kind).sample(level, why);
    },
  };
}

/**
 * A limit judged once per window of as many samples as it is: the worst level in the window halves it (2 and
 * above: failed or shed), lowers it by a quarter (1: queueing) or, with nothing, raises it by one up to `most()`.
 */
function createWindowed(top: number, most: () => number) {
  let limit = Math.min(2, top);
  let since = 0;
  let worst = { level: 0, why: '' };
  const changes: LimitChange[] = [];
  let changeCount = 0;
  let [lowest, highest, lowered] = [limit, limit, 0];
  let firstLowered: string | undefined;
  const change = (to: number, why: string) => {
    if (to === limit) return;
    changeCount += 1;
    if (changes.length < KEPT_CHANGES) changes.push({ from: limit, to, why });
    if (to < limit) {
      lowered += 1;
      firstLowered ??= why;
    }
    limit = to;
    [lowest, highest] = [Math.min(lowest, to), Math.max(highest, to)];
  };
  return {
    current: () => limit,
    changes,
    changeCount: () => changeCount,
    change,
    figures: (): KindLimit => ({ now: limit, lowest, highest, lowered, ...(firstLowered ? { firstLowered } : {}) }),
    sample(level: number, why: string) {
      since += 1;
      if (level > worst.level) worst = { level, why };
      if (since < limit) return;
      const seen = worst;
      worst = { level: 0, why: '' };
      since = 0;
      if (seen.level >= 2) change(Math.max(1, Math.min(most(), Math.floor(limit / 2))), seen.why);
      else if (seen.level === 1) change(Math.max(1, Math.floor((limit * 3) / 4)), seen.why);
      else if (limit < most()) change(limit + 1, 'latency held');
    },
  };
}
