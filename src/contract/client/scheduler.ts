// When a request may go: within the requests in flight (highest priority first; a group whole), the rate, and
// any hold a 429 put on the run; every wait ends at once when the deadline passes. Hand-written rather than
// p-queue: a group takes as many slots as it has members, which p-queue's one-slot tasks cannot express.
import type { ConcurrencyLimit } from './concurrency-limit.ts';
import { sleep } from './sleep.ts';

/** Lets requests go in their turn. */
export interface Scheduler {
  /** Runs `send` in its turn (within its kind's own limit too, when `kind` is given); undefined when the deadline passed first. */
  inTurn<T>(send: () => Promise<T>, priority?: number, kind?: string): Promise<T | undefined>;
  /**
   * Runs `sends` as one group in one turn, let through whole: once the group's turn comes, each starts as soon
   * as the rate allows, none waiting for a slot of its own; undefined for those the deadline stopped.
   */
  together<T>(sends: readonly (() => Promise<T>)[], priority?: number, kinds?: readonly (string | undefined)[]): Promise<(T | undefined)[]>;
  /**
   * Runs `run` with nothing else in flight: it goes before anything queued, once every request in flight has
   * ended, and nothing else starts until it ends. `run` sends its requests (any number, one at a time), each
   * after `mayGo` resolves true (the rate and any 429's hold); undefined when the deadline passed first.
   */
  alone<T>(run: (mayGo: () => Promise<boolean>) => Promise<T>): Promise<T | undefined>;
  /** After a 429: one request in flight from now on, and none starts before `waitMs` has passed. */
  backOff(waitMs: number): void;
  /** Requests in flight now. */
  inFlight(): number;
  /** Requests of `kind` in flight now. */
  inFlightOf(kind: string): number;
}

/** What a scheduler keeps to. */
export interface SchedulerOptions {
  readonly concurrency?: number;
  readonly rate?: number;
  readonly signal?: AbortSignal;
  /** A limit that moves with the target's latency, within --concurrency; by default `concurrency`, fixed. */
  readonly limit?: ConcurrencyLimit;
}

/** Requests queued as one: a single request, or a group let through whole. */
interface Unit {
  readonly priority: number;
  /** Starts only with nothing in flight, and holds every slot while it runs; its requests wait for their turns (mayGo). */
  readonly alone?: boolean;
  readonly members: readonly (() => Promise<void>)[];
  /** Each member's kind, when known: it waits for its kind's own limit too. */
  readonly kinds: readonly (string | undefined)[];
  /** Its members of each kind known, counted once when queued: every pump asks whether they fit their kinds' limits. */
  readonly perKind: ReadonlyMap<string, number>;
  /** Members started so far. */
  started: number;
}

/**
 * Creates the scheduler of one client: at most `concurrency` requests in flight (1 from the first 429 on), the
 * highest priority first and, within one priority, in the order they were queued. A group starts whole: it
 * waits until all its members can be in flight at once (a group larger than the limit, until nothing else is),
 * and nothing else starts before all its members have. A unit held only by its kind's own limit (searches at
 * what the target runs at once) lets the units behind it go first.
 *
 * @example
 * const scheduler = createScheduler({ concurrency: 8, signal: deadline });
 * const answer = await scheduler.inTurn(() => send(request));
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  let fixed = Math.max(1, options.concurrency ?? 1);
  const limitNow = () => (options.limit ? options.limit.current() : fixed);
  const kindLimit = (kind: string) => (options.limit ? options.limit.currentOf(kind) : fixed);
  let inFlight = 0;
  const ofKind = createCounts();
  const queue: Unit[] = [];
  /** The group whose members are starting: it goes on before any other unit. */
  let starting: Unit | undefined;
  /** A unit run alone is in flight: nothing else starts. */
  let aloneRunning = false;
  // After a 429: no request starts before this (performance.now() time), whichever request got it.
  const hold = { until: 0 };
  const mayStart = starter(pacer(options.rate, options.signal), hold, options.signal);
  /** Starts what may start now: the starting group's next members, else the head of the queue when it fits. */
  const pump = () => {
    for (;;) {
      if (aloneRunning) return;
      const limit = limitNow();
      starting ??= takeNext(queue, inFlight, limit, (kind) => [ofKind.of(kind), kindLimit(kind)]);
      // A unit run alone (one member) starts whatever the limit: takeHead gives it only with nothing in flight.
      if (!starting || (inFlight >= limit && !starting.alone)) return;
      const unit = starting;
      const [member, kind] = [unit.members[unit.started]!, unit.kinds[unit.started]];
      unit.started += 1;
      if (unit.started === unit.members.length) starting = undefined;
      run(member, unit.alone === true, kind);
    }
  };
  /** Starts `member`, holding every slot while it runs when `alone`. */
  const run = (member: () => Promise<void>, alone: boolean, kind: string | undefined) => {
    inFlight += 1;
    ofKind.add(kind, 1);
    aloneRunning = alone;
    void member().finally(() => {
      inFlight -= 1;
      ofKind.add(kind, -1);
      aloneRunning = false;
      pump();
    });
  };
  /** Queues `sends` as one unit; each resolves with its answer, or undefined when the deadline passed first. */
  const enqueue = <T>(
    sends: readonly (() => Promise<T>)[],
    priority: number,
    kinds: readonly (string | undefined)[] = [],
    alone = false,
  ): Promise<T | undefined>[] => {
    if (sends.length === 0) return [];
    const made = sends.map((send) => deferred(async () => (alone || (await mayStart()) ? send() : undefined)));
    const at = queue.findIndex((unit) => unit.priority < priority);
    const queued: Unit = { priority, members: made.map((m) => m.start), kinds, perKind: createCounts(kinds).counts, started: 0, alone };
    queue.splice(at < 0 ? queue.length : at, 0, queued);
    pump();
    return made.map((m) => m.answer);
  };
  return {
    inFlight: () => inFlight,
    inFlightOf: ofKind.of,
    backOff(waitMs) {
      if (options.limit) options.limit.pin(1, 'a 429 (Too Many Requests): one request in flight from then on');
      fixed = 1;
      hold.until = Math.max(hold.until, performance.now() + waitMs);
    },
    inTurn: (send, priority = 0, kind = undefined) => enqueue([send], priority, [kind])[0]!,
    together: (sends, priority = 0, kinds = []) => Promise.all(enqueue(sends, priority, kinds)),
    alone: (run) => enqueue([() => run(mayStart)], Number.POSITIVE_INFINITY, [], true)[0]!,
  };
}

/**
 * The next unit of `queue` that may start beside the `inFlight` requests, taken off it: the first in the queue's
 * order that fits the limit of all (a group once all its members fit at once, one larger than `limit` once nothing
 * else is in flight; a unit run alone once nothing is) and the limit of each of its members' kinds (`kind` gives a
 * kind's requests in flight and limit: the same rule). A unit the limit of all holds stops the search, so a group
 * or a unit run alone is never overtaken; one held only by its kinds lets the next ones be tried.
 */
function takeNext(
  queue: Unit[],
  inFlight: number,
  limit: number,
  kind: (kind: string) => readonly [inFlight: number, limit: number],
): Unit | undefined {
  for (const [at, unit] of queue.entries()) {
    if (inFlight + Math.min(unit.members.length, limit) > limit || (unit.alone && inFlight > 0)) return undefined;
    const fits = [...unit.perKind].every(([k, members]) => {
      const [now, most] = kind(k);
      return now + Math.min(members, most) <= most;
    });
    if (fits) return queue.splice(at, 1)[0];
  }
  return undefined;
}

/**
 * Counts by kind, in the order first seen, from one of each of `kinds` (a unit's members, or none: the requests in
 * flight); a request of no kind is not counted.
 */
function createCounts(kinds: readonly (string | undefined)[] = []) {
  const counts = new Map<string, number>();
  const add = (kind: string | undefined, by: number) => {
    if (kind !== undefined) counts.set(kind, (counts.get(kind) ?? 0) + by);
  };
  for (const kind of kinds) add(kind, 1);
  return { counts: counts as ReadonlyMap<string, number>, of: (kind: string) => counts.get(kind) ?? 0, add };
}

/** `run` to start later, and the promise of what it comes to. */
function deferred<T>(run: () => Promise<T>): { readonly start: () => Promise<void>; readonly answer: Promise<T> } {
  let start!: () => Promise<void>;
  const answer = new Promise<T>((resolve, reject) => {
    start = () => run().then(resolve, reject);
  });
  return { start, answer };
}

/** A function resolving once a request may start: its turn in the rate, then any 429's hold (false: the deadline passed first). */
function starter(pace: () => Promise<boolean>, hold: { readonly until: number }, signal: AbortSignal | undefined) {
  return async () => {
    if (!(await pace())) return false;
    // Again after each wait: a 429 to a request already in flight may have moved the hold on.
    for (let wait = hold.until - performance.now(); wait > 0; wait = hold.until - performance.now())
      if (!(await sleep(wait, signal))) return false;
    return true;
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
