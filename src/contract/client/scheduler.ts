// When a request may go: within the requests in flight (highest priority first), the rate, and any hold a 429
// put on the run; every wait ends at once when the deadline passes.
import PQueue from 'p-queue';

/** Lets requests go in their turn. */
export interface Scheduler {
  /** Runs `send` in its turn; undefined when the deadline passed first. */
  inTurn<T>(send: () => Promise<T>, priority?: number): Promise<T | undefined>;
  /** After a 429: one request in flight from now on, and none starts before `waitMs` has passed. */
  backOff(waitMs: number): void;
}

/**
 * Creates the scheduler of one client.
 *
 * @example
 * const scheduler = createScheduler({ concurrency: 8, signal: deadline });
 * const answer = await scheduler.inTurn(() => send(request));
 */
export function createScheduler(options: {
  readonly concurrency?: number;
  readonly rate?: number;
  readonly signal?: AbortSignal;
}): Scheduler {
  const pace = pacer(options.rate, options.signal);
  // A priority queue: a request others wait on (a listing read) goes before those sent ahead.
  const inFlight = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 1) });
  // After a 429: no request starts before this (performance.now() time), whichever request got it.
  let holdUntil = 0;
  return {
    backOff(waitMs) {
      inFlight.concurrency = 1;
      holdUntil = Math.max(holdUntil, performance.now() + waitMs);
    },
    inTurn: (send, priority = 0) =>
      inFlight.add(
        async () => {
          if (!(await pace())) return undefined;
          // Again after each wait: a 429 to a request already in flight may have moved the hold on.
          for (let wait = holdUntil - performance.now(); wait > 0; wait = holdUntil - performance.now())
            if (!(await sleep(wait, options.signal))) return undefined;
          return send();
        },
        { priority },
      ),
  };
}

/** A function resolving when the next request may go (false: the deadline passed first). */
function pacer(rate: number | undefined, signal: AbortSignal | undefined): () => Promise<boolean> {
  const interval = rate && rate > 0 ? 1000 / rate : 0;
  let next = 0;
  return async () => {
    if (signal?.aborted) return false;
    if (interval === 0) return true;
    // The slot is taken before waiting, so concurrent sends queue up evenly.
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    return at > now ? sleep(at - now, signal) : true;
  };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
