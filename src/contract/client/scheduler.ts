// When a request may go: within the requests in flight (highest priority first; a group whole), the rate, and
// any hold a 429 put on the run; every wait ends at once when the deadline passes. Hand-written rather than
// p-queue: a group takes as many slots as it has members, which p-queue's one-slot tasks cannot express.
import type { ConcurrencyLimit } from './concurrency-limit.ts';
import { sleep } from './sleep.ts';

/** Lets requests go in their turn. */
export interface Scheduler {
  /**
   * Runs `send` in its turn; undefined when the deadline passed first. With a `kind`, it waits for room under that
   * kind's own limit too (see ConcurrencyLimit.of), and requests of other kinds queued behind it go meanwhile.
   */
  inTurn<T>(send: () => Promise<T>, priority?: number, kind?: string): Promise<T | undefined>;
  /**
   * Runs `sends` as one group in one turn, let through whole: once the group's turn comes, each starts as soon
   * as the rate allows, none waiting for a slot of its own; undefined for those the deadline stopped.
   */
  together<T>(sends: readonly (() => Promise<T>)[], priority?: number): Promise<(T | undefined)[]>;
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
  /** A single request's kind: it waits for room under that kind's limit. */
  readonly kind?: string;
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
export function createScheduler(options: SchedulerOptions): Scheduler {
  const limits = limitsOf(options);
  const counts: Counts = { all: 0, ofKind: new Map() };
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
      const limit = limits.all();
      if (!starting) {
        const at = nextUnit(queue, counts, limit, limits.of);
        if (at < 0) return;
        const [unit] = queue.splice(at, 1);
        if (unit!.alone) {
          run(unit!.members[0]!, true);
          return;
        }
        starting = unit;
      }
      if (counts.all >= limit) return;
      const unit = starting!;
      const member = unit.members[unit.started]!;
      unit.started += 1;
      if (unit.started === unit.members.length) starting = undefined;
      run(member, false, unit.kind);
    }
  };
  /** Starts `member`, holding every slot while it runs when `alone`, counted under its kind when it has one. */
  const run = (member: () => Promise<void>, alone: boolean, kind?: string) => {
    count(counts, kind, 1);
    aloneRunning = alone;
    void member().finally(() => {
      count(counts, kind, -1);
      aloneRunning = false;
      pump();
    });
  };
  const enqueue = <T>(sends: readonly (() => Promise<T>)[], priority: number, alone = false, kind?: string) => {
    const answers = queued(queue, sends, { priority, alone, ...(kind !== undefined ? { kind } : {}) }, mayStart);
    pump();
    return answers;
  };
  return {
    inFlight: () => counts.all,
    backOff(waitMs) {
      limits.one();
      hold.until = Math.max(hold.until, performance.now() + waitMs);
    },
    inTurn: (send, priority = 0, kind) => enqueue([send], priority, false, kind)[0]!,
    together: (sends, priority = 0) => Promise.all(enqueue(sends, priority)),
    alone: (run) => enqueue([() => run(mayStart)], Number.POSITIVE_INFINITY, true)[0]!,
  };
}

/** The limits a scheduler keeps to: the learned limit when given, else `concurrency` fixed; one from a 429 on. */
function limitsOf(options: SchedulerOptions) {
  let fixed = Math.max(1, options.concurrency ?? 1);
  return {
    all: () => (options.limit ? options.limit.current() : fixed),
    of: (kind: string) => (options.limit ? options.limit.of(kind) : fixed),
    one() {
      options.limit?.pin(1, 'a 429 (Too Many Requests): one request in flight from then on');
      fixed = 1;
    },
  };
}

/**
 * `sends` queued as one unit, after those of its priority and higher; each resolves with its answer, or undefined
 * when the deadline passed first (a unit run alone waits for its turns itself).
 */
function queued<T>(
  queue: Unit[],
  sends: readonly (() => Promise<T>)[],
  unit: Pick<Unit, 'priority' | 'alone' | 'kind'>,
  mayStart: () => Promise<boolean>,
): Promise<T | undefined>[] {
  if (sends.length === 0) return [];
  const made = sends.map((send) => deferred(async () => (unit.alone || (await mayStart()) ? send() : undefined)));
  const at = queue.findIndex((queuedUnit) => queuedUnit.priority < unit.priority);
  queue.splice(at < 0 ? queue.length : at, 0, { ...unit, members: made.map((m) => m.start), started: 0 });
  return made.map((m) => m.answer);
}

/** Requests in flight, in all and per kind (those sent with one). */
interface Counts {
  all: number;
  readonly ofKind: Map<string, number>;
}

/** One more request in flight (`by` 1), or one fewer (-1), of `kind` when it has one. */
function count(counts: Counts, kind: string | undefined, by: 1 | -1): void {
  counts.all += by;
  if (kind !== undefined) counts.ofKind.set(kind, (counts.ofKind.get(kind) ?? 0) + by);
}

/**
 * The place in `queue` of the first unit that may start now, or -1: a request of a kind when there is room in all
 * and under its kind's limit (those behind it go by while it waits); a group when all its members fit (nothing
 * goes by it); a unit run alone at the head with nothing in flight.
 */
function nextUnit(queue: readonly Unit[], counts: Counts, limit: number, kindLimit: (kind: string) => number): number {
  for (const [i, unit] of queue.entries()) {
    if (unit.alone) return i === 0 && counts.all === 0 ? i : -1;
    if (unit.kind === undefined) return counts.all + Math.min(unit.members.length, limit) <= limit ? i : -1;
    if (counts.all < limit && (counts.ofKind.get(unit.kind) ?? 0) < kindLimit(unit.kind)) return i;
  }
  return -1;
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
