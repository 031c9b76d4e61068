// When a request may go: within the requests in flight (highest priority first; a group whole), the rate, and
// any hold a 429 put on the run; every wait ends at once when the deadline passes. Hand-written rather than
// p-queue: a group takes as many slots as it has members, which p-queue's one-slot tasks cannot express.
import type { ConcurrencyLimit } from './concurrency-limit.ts';

/** Lets requests go in their turn. */
export interface Scheduler {
  /** Runs `send` in its turn; undefined when the deadline passed first. */
  inTurn<T>(send: () => Promise<T>, priority?: number): Promise<T | undefined>;
  /**
   * Runs `sends` as one group in one turn, let through whole: once the group's turn comes, each starts as soon
   * as the rate allows, none waiting for a slot of its own; undefined for those the deadline stopped.
   */
  together<T>(sends: readonly (() => Promise<T>)[], priority?: number): Promise<(T | undefined)[]>;
  /** After a 429: one request in flight from now on, and none starts before `waitMs` has passed. */
  backOff(waitMs: number): void;
  /** Requests in flight now. */
  inFlight(): number;
}

/** Requests queued as one: a single request, or a group let through whole. */
interface Unit {
  readonly priority: number;
  readonly members: readonly (() => Promise<void>)[];
  /** Members started so far. */
  started: number;
}

/**
 * Creates the scheduler of one client: at most `concurrency` requests in flight (1 from the first 429 on), the
 * highest priority first and, within one priority, in the order they were queued. A group starts whole: it
 * waits until all its members can be in flight at once (a group larger than the limit, until nothing else is),
 * and nothing else starts before all its members have.
 *
 * @example
 * const scheduler = createScheduler({ concurrency: 8, signal: deadline });
 * const answer = await scheduler.inTurn(() => send(request));
 */
export function createScheduler(options: {
  readonly concurrency?: number;
  readonly rate?: number;
  readonly signal?: AbortSignal;
  /** A limit that moves with the target's latency, within --concurrency; by default `concurrency`, fixed. */
  readonly limit?: ConcurrencyLimit;
}): Scheduler {
  const pace = pacer(options.rate, options.signal);
  let fixed = Math.max(1, options.concurrency ?? 1);
  const limitNow = () => (options.limit ? options.limit.current() : fixed);
  let inFlight = 0;
  const queue: Unit[] = [];
  /** The group whose members are starting: it goes on before any other unit. */
  let starting: Unit | undefined;
  // After a 429: no request starts before this (performance.now() time), whichever request got it.
  let holdUntil = 0;
  /** Resolves once the request may start (false: the deadline passed first). */
  const mayStart = async () => {
    if (!(await pace())) return false;
    // Again after each wait: a 429 to a request already in flight may have moved the hold on.
    for (let wait = holdUntil - performance.now(); wait > 0; wait = holdUntil - performance.now())
      if (!(await sleep(wait, options.signal))) return false;
    return true;
  };
  /** Starts what may start now: the starting group's next members, else the head of the queue when it fits. */
  const pump = () => {
    for (;;) {
      const limit = limitNow();
      if (!starting) {
        const head = queue[0];
        if (!head || inFlight + Math.min(head.members.length, limit) > limit) return;
        starting = queue.shift();
      }
      if (inFlight >= limit) return;
      const unit = starting!;
      const member = unit.members[unit.started]!;
      unit.started += 1;
      if (unit.started === unit.members.length) starting = undefined;
      inFlight += 1;
      void member().finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  };
  /** Queues `sends` as one unit; each resolves with its answer, or undefined when the deadline passed first. */
  const enqueue = <T>(sends: readonly (() => Promise<T>)[], priority: number): Promise<T | undefined>[] => {
    if (sends.length === 0) return [];
    const answers: Promise<T | undefined>[] = [];
    const members = sends.map((send) => {
      let settle!: (run: () => Promise<T | undefined>) => Promise<void>;
      answers.push(
        new Promise<T | undefined>((resolve, reject) => {
          settle = (run) => run().then(resolve, reject);
        }),
      );
      return () => settle(async () => ((await mayStart()) ? send() : undefined));
    });
    const at = queue.findIndex((unit) => unit.priority < priority);
    queue.splice(at < 0 ? queue.length : at, 0, { priority, members, started: 0 });
    pump();
    return answers;
  };
  return {
    inFlight: () => inFlight,
    backOff(waitMs) {
      if (options.limit) options.limit.pin(1, 'a 429 (Too Many Requests): one request in flight from then on');
      fixed = 1;
      holdUntil = Math.max(holdUntil, performance.now() + waitMs);
    },
    inTurn: (send, priority = 0) => enqueue([send], priority)[0]!,
    together: (sends, priority = 0) => Promise.all(enqueue(sends, priority)),
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
