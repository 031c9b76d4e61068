// How many requests may be in flight, learned from the target: the ceiling is --concurrency, and under it each
// kind of request (a plain page, a page far in, a search) has a limit of its own, learned from its own latency,
// timeouts and sheds (see kind-limit.ts): seconds-long searches stay near what the target runs at once while
// pages of milliseconds go wide. A 429 and a gateway shedding load bound all kinds together.
import type { LimitChange } from '../types.ts';
import { createKindLimit, type KindLimit } from './kind-limit.ts';

export type { LimitChange } from '../types.ts';

/** One request's end, as the limit learns from it. */
export interface LimitSample {
  /** The kind of request (see HttpClientOptions.requestKind): kinds differ by 50x on real backends. */
  readonly kind: string;
  readonly latencyMs: number;
  /** Requests in flight when it started, of all kinds, itself included. */
  readonly inFlight: number;
  /** Requests of its kind in flight when it started, itself included (default `inFlight`). */
  readonly kindInFlight?: number;
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
  /** The requests that may be in flight now: of `kind` when given (never more than of all kinds), else of all kinds. */
  current(kind?: string): number;
  /** Each kind's limit now. */
  kinds(): ReadonlyMap<string, number>;
  /** Whether `latencyMs` is well above what `kind` takes unloaded (false while that is not known): queueing. */
  queueing(kind: string, latencyMs: number): boolean;
  /** Learns from a request's end. */
  sample(sample: LimitSample): void;
  /** Holds the limit at `limit` for good (after a 429: one request in flight). */
  pin(limit: number, why: string): void;
  /** The latency each kind takes unloaded (at most 2 in flight), in ms. */
  unloaded(): ReadonlyMap<string, number>;
  /** The changes of the limit of all kinds so far, oldest first (the first {@link KEPT_CHANGES}; `changeCount` counts them all). */
  readonly changes: readonly LimitChange[];
  changeCount(): number;
}

const KEPT_CHANGES = 50;
/** At most this many in flight, a request's latency is its unloaded latency. */
export const ALONE_IN_FLIGHT = 2;
/** Where each kind's limit starts. */
const START = 2;

/**
 * Creates a limit of all kinds together and one of each kind, each starting at 2 (or the ceiling, if lower) and
 * moving as {@link createKindLimit} says: all together judged by each request's latency against its own kind's
 * unloaded latency (so a 502/503/504, a timeout or queueing of any kind lowers them), and each kind by its own
 * requests also against 80% of `timeoutMs` (the client's --timeout), a kind never above all together. A
 * 502/503/504 with n in flight keeps all kinds together below n from then on (a gateway shedding load past a
 * limit of its own), and a 429 pins them to one request. A target far away whose latency does not grow with
 * load keeps every kind at the ceiling.
 *
 * @example
 * const limit = createConcurrencyLimit(8, { timeoutMs: 10_000 });
 * limit.sample({ kind: '/alert search', latencyMs: 1800, inFlight: 1, failed: false });
 */
export function createConcurrencyLimit(ceiling: number, { timeoutMs }: { readonly timeoutMs?: number } = {}): ConcurrencyLimit {
  const top = Math.max(1, Math.floor(ceiling));
  /** The requests in flight at each 502/503/504 that came at a new low: the limit stays below the fewest. */
  const sheds: number[] = [];
  const most = () => Math.min(top, ...sheds.map((n) => n - 1));
  let pinned = false;
  const all = createKindLimit(Math.min(START, top));
  const limits = new Map<string, KindLimit>();
  const limitOf = (kind: string) => {
    const known = limits.get(kind) ?? createKindLimit(Math.min(START, top), timeoutMs);
    limits.set(kind, known);
    return known;
  };
  const ofKind = (kind: string) => Math.min(all.current(), limits.get(kind)?.current() ?? Math.min(START, top));
  const unloaded = new Map<string, number>();
  const changes: LimitChange[] = [];
  let changeCount = 0;
  const record = (change: LimitChange) => {
    changeCount += 1;
    if (changes.length < KEPT_CHANGES) changes.push(change);
  };
  return {
    ceiling: top,
    current: (kind) => (kind === undefined ? all.current() : ofKind(kind)),
    kinds: () => new Map([...limits.keys()].map((kind) => [kind, ofKind(kind)])),
    queueing: (kind, latencyMs) => all.queueing(latencyMs, unloaded.get(kind)),
    unloaded: () => unloaded,
    changes,
    changeCount: () => changeCount,
    notShed(inFlight) {
      // The most in flight while it ran is at least what it started with: the largest such shed is its own.
      const own = Math.max(...sheds.filter((n) => n <= inFlight));
      if (Number.isFinite(own)) sheds.splice(sheds.indexOf(own), 1);
    },
    pin(to, why) {
      const from = all.current();
      all.pin(Math.max(1, Math.min(top, to)));
      if (all.current() !== from) record({ from, to: all.current(), why });
      pinned = true;
    },
    sample({ kind, latencyMs, inFlight, kindInFlight = inFlight, failed, shed }) {
      if (pinned) return;
      let failure = `a request ${shed ? 'got a 502/503/504' : 'timed out or was reset'} with ${inFlight} in flight`;
      const bounded = shed === true && inFlight > 1 && inFlight <= most();
      if (bounded) {
        failure = `a 502/503/504 with ${inFlight} in flight: at most ${inFlight - 1} from then on`;
        sheds.push(inFlight);
      }
      const base = unloaded.get(kind);
      if (!failed && inFlight <= ALONE_IN_FLIGHT && (base === undefined || latencyMs < base)) unloaded.set(kind, latencyMs);
      const from = all.current();
      const moved = all.sample({ kind, latencyMs, inFlight, unloadedMs: base, failed, failure, bounded }, most());
      if (moved) record({ from, to: moved.to, why: moved.why });
      limitOf(kind).sample({ kind, latencyMs, inFlight: kindInFlight, unloadedMs: base, failed, failure, bounded }, all.current());
    },
  };
}
