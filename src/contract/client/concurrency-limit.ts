// How many requests may be in flight, learned from the target: the ceiling is --concurrency, the start is low,
// and the limit follows latency per kind of request (a plain page, a page far in, a search), as Envoy's adaptive
// concurrency and Netflix's Vegas limiter do: latency well above what the kind takes unloaded is queueing.
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
  /** Requests that may be in flight now. */
  current(): number;
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
 * shedding load past a limit of its own); else a request slower than twice (and 20 ms more than) its kind's unloaded latency
 * lowers it by a quarter; else it rises by one, up to the ceiling. A target far away whose latency does not
 * grow with load keeps the run at the ceiling.
 *
 * @example
 * const limit = createConcurrencyLimit(8);
 * limit.sample({ kind: '/alert search', latencyMs: 1800, inFlight: 1, failed: false });
 */
export function createConcurrencyLimit(ceiling: number): ConcurrencyLimit {
  const top = Math.max(1, Math.floor(ceiling));
  /** The requests in flight at each 502/503/504 that came at a new low: the limit stays below the fewest. */
  const sheds: number[] = [];
  const most = () => Math.min(top, ...sheds.map((n) => n - 1));
  let limit = Math.min(2, top);
  let pinned = false;
  /** Samples since the last change: a window is as many as the limit. */
  let since = 0;
  const unloaded = new Map<string, number>();
  const changes: LimitChange[] = [];
  let changeCount = 0;
  /** The worst the current window saw: 3 load shed at a new low, 2 a timeout, reset or 502/503/504, 1 queueing, 0 nothing. */
  let worst = { level: 0, why: '' };
  const change = (to: number, why: string) => {
    if (to === limit) return;
    changeCount += 1;
    if (changes.length < KEPT_CHANGES) changes.push({ from: limit, to, why });
    limit = to;
  };
  const queueing = (base: number | undefined, latencyMs: number) => base !== undefined && latencyMs > base * TOLERANCE + SLACK_MS;
  return {
    ceiling: top,
    current: () => limit,
    queueing: (kind, latencyMs) => queueing(unloaded.get(kind), latencyMs),
    unloaded: () => unloaded,
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
    sample({ kind, latencyMs, inFlight, failed, shed }) {
      if (pinned) return;
      since += 1;
      if (shed && inFlight > 1 && inFlight <= most()) {
        worst = { level: 3, why: `a 502/503/504 with ${inFlight} in flight: at most ${inFlight - 1} from then on` };
        sheds.push(inFlight);
      }
      const base = unloaded.get(kind);
      if (!failed && inFlight <= ALONE_IN_FLIGHT && (base === undefined || latencyMs < base)) unloaded.set(kind, latencyMs);
      if (failed && worst.level < 2)
        worst = { level: 2, why: `a request ${shed ? 'got a 502/503/504' : 'timed out or was reset'} with ${inFlight} in flight` };
      else if (base !== undefined && queueing(base, latencyMs) && worst.level < 1)
        worst = { level: 1, why: `${kind} took ${duration(latencyMs)} with ${inFlight} in flight, ${duration(base)} alone` };
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
