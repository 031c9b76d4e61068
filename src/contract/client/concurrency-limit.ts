// How many requests may be in flight, learned from the target: the ceiling is --concurrency, the start is low,
// and the limit follows latency per kind of request (a plain page, a page far in, a search), as Envoy's adaptive
// concurrency and Netflix's Vegas limiter do: latency well above what the kind takes unloaded is queueing.
import type { KindLimitFigures, LimitChange } from '../types.ts';
import { duration } from '../../shared/duration.ts';

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
/**
 * A kind's window whose median is above `HELD` times the kind's median alone, and `HELD_SLACK_MS` more, holds it
 * below the load it ran at: a fast kind's latency moves by tens of ms with jitter and the other kinds' load, which
 * fewer of its own in flight would not mend.
 */
const HELD = 1.5;
const HELD_SLACK_MS = 100;
/** A kind's latencies alone kept for its median: the latest. */
const KEPT_ALONE = 64;
/** At most this many in flight, a request's latency is its unloaded latency. */
export const ALONE_IN_FLIGHT = 2;

/**
 * Creates a limit of all requests and one of each kind, each starting at 2 (or the ceiling, if lower) and judged
 * once per window of as many requests as it allows (so a burst of slow answers to requests sent before a change
 * counts once).
 * - The limit of all: a timeout, a reset or a 502/503/504 in the window halves it (and a 502/503/504 with n in
 *   flight keeps it below n from then on: a gateway shedding load past a limit of its own); else it rises by one,
 *   up to the ceiling.
 * - A kind's own limit, judged by the window's median latency against the kind's median alone: a failure of the
 *   kind halves it; a median over twice alone (and 20 ms) lowers it by a quarter; a median over 1.5 times alone
 *   (and 100 ms) at a median load of n of the kind, or a failure with n of the kind in flight, keeps it below n
 *   from then on (the parallelism the target gives that kind); else it rises by one, up to the limit of all. So
 *   seconds-long searches stay near what the target runs at once while pages go wide. A target far away whose
 *   latency does not grow with load keeps every kind at the ceiling.
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
  // `worst`: what the window saw: 3 load shed at a new low, 2 a timeout, reset or 502/503/504, 0 nothing.
  const all = { limit: Math.min(2, top), since: 0, worst: { level: 0, why: '' } };
  let pinned = false;
  const alone = createAloneLatencies();
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
  const kinds = createKindLimits(top, log, alone.medianOf);
  const queueing = (base: number | undefined, latencyMs: number) => base !== undefined && latencyMs > base * TOLERANCE + SLACK_MS;
  return {
    ceiling: top,
    current: () => all.limit,
    currentOf: (kind) => Math.min(all.limit, kinds.limitOf(kind)),
    queueing: (kind, latencyMs) => queueing(alone.fastestOf(kind), latencyMs),
    unloaded: alone.fastest,
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
      // Before the kind's own limit judges its window: the median alone it is judged by includes this one.
      if (!failed) alone.sample(kind, latencyMs, inFlight);
      kinds.sample(sample, all.limit);
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

/**
 * Each kind's answered latencies alone (at most {@link ALONE_IN_FLIGHT} in flight of all kinds), kept once and read
 * two ways: the fastest ever is the kind's unloaded latency (queueing, the probes before a request is sent again
 * alone, the run's plan); the median of the latest {@link KEPT_ALONE} is what the kind's own limit judges its windows
 * against.
 */
function createAloneLatencies() {
  const kinds = new Map<string, { readonly latest: number[]; fastest: number }>();
  return {
    /** Keeps an answered request's latency when it had at most {@link ALONE_IN_FLIGHT} in flight (itself included). */
    sample(kind: string, latencyMs: number, inFlight: number) {
      if (inFlight > ALONE_IN_FLIGHT) return;
      const alone = kinds.get(kind) ?? { latest: [], fastest: latencyMs };
      kinds.set(kind, alone);
      if (alone.latest.push(latencyMs) > KEPT_ALONE) alone.latest.shift();
      if (latencyMs < alone.fastest) alone.fastest = latencyMs;
    },
    /** Each kind's fastest latency alone, by kind, in the order first seen alone. */
    fastest: (): ReadonlyMap<string, number> => new Map([...kinds].map(([kind, { fastest }]) => [kind, fastest])),
    fastestOf: (kind: string) => kinds.get(kind)?.fastest,
    medianOf: (kind: string) => median(kinds.get(kind)?.latest ?? []),
  };
}

/** One kind's own limit and its current window. */
interface KindLimit {
  limit: number;
  lowest: number;
  highest: number;
  /** It stays below this: the load of its kind at which a window was well over its time alone, or one failed. */
  hold: number;
  /** Samples in the current window; the latency and the requests of the kind in flight of those answered. */
  since: number;
  readonly latencies: number[];
  readonly loads: number[];
  /** The fewest of the kind in flight at a failure in the window, and why it failed. */
  failedAt: number;
  failed: string;
}

/**
 * The kinds' own limits, each judged on its own window by the window's median latency against the kind's median
 * alone (`aloneMedian`: a median, not the fastest: what one request met once is no measure of a kind under other
 * kinds' load); `log` records their changes.
 */
function createKindLimits(top: number, log: (change: LimitChange) => void, aloneMedian: (kind: string) => number | undefined) {
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
    /** Learns from one of its requests; `allLimit` is the limit of all now. */
    sample({ kind, kindInFlight, inFlight, failed, latencyMs }: LimitSample, allLimit: number) {
      const k = kinds.get(kind) ?? freshKind(start);
      kinds.set(kind, k);
      const own = kindInFlight ?? inFlight;
      k.since += 1;
      if (failed && own < k.failedAt)
        [k.failedAt, k.failed] = [own, `a request timed out, was reset or got a 502/503/504 with ${own} of its kind in flight`];
      else if (!failed) {
        k.latencies.push(latencyMs);
        k.loads.push(own);
      }
      if (k.since < k.limit) return;
      judge(kind, k, allLimit);
    },
  };

  /** The end of `k`'s window: a failure halves it, a slow window lowers it by a quarter, a held one raises it by one. */
  function judge(kind: string, k: KindLimit, allLimit: number) {
    const [base, typical, load] = [aloneMedian(kind), median(k.latencies), median(k.loads)];
    const over = (times: number, slack: number) => base !== undefined && typical !== undefined && typical > base * times + slack;
    // Well over its time alone at a load of n of its kind, or a failure with n: the target gives the kind fewer than n.
    const at = Math.min(over(HELD, HELD_SLACK_MS) ? (load ?? 0) : Number.POSITIVE_INFINITY, k.failedAt);
    if (at >= ALONE_IN_FLIGHT && at < k.hold) k.hold = at;
    const failedWhy = k.failed;
    const slow = over(TOLERANCE, SLACK_MS)
      ? `took ${duration(typical!)} (median) with ${load} of its kind in flight, ${duration(base!)} alone`
      : '';
    Object.assign(k, freshWindow());
    const most = Math.min(top, k.hold - 1);
    const heldWhy = `${duration(typical ?? 0)} (median) with ${at} of its kind in flight, ${duration(base ?? 0)} alone: at most ${most} from then on`;
    if (failedWhy) change(kind, k, Math.max(1, Math.min(most, Math.floor(k.limit / 2))), failedWhy);
    else if (slow || k.limit > most)
      change(kind, k, Math.max(1, Math.min(most, Math.floor((k.limit * 3) / 4))), k.limit > most ? heldWhy : slow);
    // Never far above the limit of all: a kind held by it has not shown it could go wider.
    else if (k.limit < Math.min(most, allLimit + 1)) change(kind, k, k.limit + 1, 'latency held');
  }
}

/** The median of `values`, undefined when there are none. */
function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** A kind not seen before: at the start, nothing held, an empty window. */
function freshKind(start: number): KindLimit {
  return { limit: start, lowest: start, highest: start, hold: Number.POSITIVE_INFINITY, ...freshWindow() };
}

/** A window with nothing seen yet. */
const freshWindow = () => ({ since: 0, latencies: [], loads: [], failedAt: Number.POSITIVE_INFINITY, failed: '' });
