// The limit of one kind of request (a plain page, a page far in, a search): kinds differ by 1,000x on a real
// backend, so each learns its own in-flight limit from its own latency, timeouts and sheds, as Envoy's adaptive
// concurrency and Netflix's Vegas limiter do for one kind.
import { duration } from '../../shared/duration.ts';

/** Latency above `TOLERANCE` times the kind's unloaded latency, and `SLACK_MS` more, is queueing. */
const TOLERANCE = 2;
const SLACK_MS = 20;
/**
 * Latency past this share of --timeout is queueing too, whatever the kind takes alone: a search of 6 s alone
 * that takes 9 s is one step from timing out, and a timeout costs a timeout and a re-send alone.
 */
export const NEAR_TIMEOUT = 0.8;

/** One request ending, as a limit learns from it. */
export interface KindSample {
  /** Its kind of request, for the change it brings. */
  readonly kind: string;
  readonly latencyMs: number;
  /** Requests in flight when it started that this limit counts, itself included. */
  readonly inFlight: number;
  /** Its kind's unloaded latency (undefined while unknown). */
  readonly unloadedMs: number | undefined;
  /** Timed out, reset, or a 502/503/504. */
  readonly failed: boolean;
  /** Why it failed, for the change it brings. */
  readonly failure?: string;
  /** Its failure set a new bound on all kinds (load shed at a new low): its why goes before any other. */
  readonly bounded?: boolean;
}

/** A limit of requests in flight: a window of as many samples as the limit is judged at once. */
export interface KindLimit {
  current(): number;
  /** Learns from a request's end; returns the change it made, if any, and why. */
  sample(sample: KindSample, most: number): { readonly to: number; readonly why: string } | undefined;
  /** Holds the limit at `limit` (after a 429). */
  pin(limit: number): void;
  /** Whether `latencyMs` is queueing for a kind that takes `unloadedMs` alone. */
  queueing(latencyMs: number, unloadedMs: number | undefined): boolean;
}

/**
 * Creates a limit (of one kind of request, or of all together), starting at `start`: a window with a timeout,
 * reset or 502/503/504 halves it; else one slower than twice (and 20 ms more than) the kind's unloaded latency, or than 80% of `timeoutMs`,
 * lowers it by a quarter; else it rises by one, up to `most` — unless the kind never held that many and its
 * latency, grown by one more in flight, would pass 80% of `timeoutMs` (a target running one search at a time
 * would time the next out: the rise is not tried). Nor is it ever above what the kind held while that many,
 * one after another at its unloaded latency, would pass that (a 6 s search goes one at a time from its second
 * answer on, unless two at once held). Without `timeoutMs`, latency near it is no concern.
 *
 * @example
 * const searches = createKindLimit(2, 10_000);
 * searches.sample({ kind: '/alert search', latencyMs: 6_000, inFlight: 2, unloadedMs: 5_800, failed: false }, 8);
 */
export function createKindLimit(start: number, timeoutMs?: number): KindLimit {
  let limit = start;
  let since = 0;
  /** The most of this kind answered in flight without queueing: a rise up to it is known to hold. */
  let held = 0;
  /** The worst of the window: 3 a new bound, 2 a failure, 1 queueing, 0 nothing; and its slowest latency. */
  let worst = { level: 0, why: '', slowestMs: 0 };
  const near = timeoutMs === undefined ? Number.POSITIVE_INFINITY : timeoutMs * NEAR_TIMEOUT;
  const queueing = (latencyMs: number, base: number | undefined) =>
    base !== undefined && latencyMs > Math.min(base * TOLERANCE + SLACK_MS, Math.max(near, base * 1.1));
  return {
    current: () => limit,
    queueing,
    pin: (to) => {
      limit = to;
    },
    sample({ kind, latencyMs, inFlight, unloadedMs, failed, failure, bounded }, most) {
      since += 1;
      const slow = queueing(latencyMs, unloadedMs);
      if (!failed && !slow) held = Math.max(held, inFlight);
      // No more of a slow kind at once than it held, when that many one after another would near the timeout:
      // a target running one at a time would time the second out, and a timeout costs a re-send alone.
      const safe = unloadedMs === undefined ? limit : Math.max(1, held, Math.floor(near / unloadedMs));
      if (limit > safe) {
        [limit, since, worst] = [safe, 0, { level: 0, why: '', slowestMs: 0 }];
        return { to: safe, why: `${kind} takes ${duration(unloadedMs!)} alone: more at once would near the timeout` };
      }
      const slowestMs = Math.max(worst.slowestMs, latencyMs);
      const level = bounded ? 3 : 2;
      if (failed && worst.level < level) worst = { level, why: failure ?? 'a request failed', slowestMs };
      else if (slow && worst.level < 1)
        worst = {
          level: 1,
          why: `${kind} took ${duration(latencyMs)} with ${inFlight} in flight, ${duration(unloadedMs!)} alone`,
          slowestMs,
        };
      else worst = { ...worst, slowestMs };
      if (since < limit) return undefined;
      const seen = worst;
      worst = { level: 0, why: '', slowestMs: 0 };
      since = 0;
      const from = limit;
      if (seen.level >= 2) limit = Math.max(1, Math.min(most, Math.floor(limit / 2)));
      else if (seen.level === 1) limit = Math.max(1, Math.floor((limit * 3) / 4));
      else if (limit < most && (limit + 1 <= held || (seen.slowestMs * (limit + 1)) / limit <= near)) limit += 1;
      else if (limit > most) limit = most;
      if (limit === from) return undefined;
      return { to: limit, why: seen.level > 0 ? seen.why : limit > from ? 'latency held' : `at most ${most} in flight` };
    },
  };
}
