/** Whether work may run between requests: not on a Worker, whose isolate bills it to some request. */
export const BETWEEN_REQUESTS =
  typeof setImmediate === 'function' &&
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent !== 'Cloudflare-Workers';

/** How long one slice of background work runs, at least, before waiting requests get their turn. */
export const SLICE_MS = 0.3;

/**
 * The share of the event loop's time background work gets while requests keep it busy, and the longest
 * slice that share may make. A slice a turn alone starves under load: one turn then serves many requests.
 */
export const BACKGROUND_SHARE = 0.1;
export const LONGEST_SLICE_MS = 5;

/** Work between requests: runs until `until` (a performance.now() instant) at most; true once done. */
export type Slice = (until: number) => boolean;

/** Background work waiting its turn: one at a time, so two search indexes never grow at once. */
const queued: Slice[] = [];
/** When the last slice ended: the time since is what the requests of the turn took. */
let lastEnd = 0;

/**
 * The end of the next slice, started `now`: SLICE_MS, or BACKGROUND_SHARE of the time since the last slice
 * when that is more (a turn that served many requests), up to LONGEST_SLICE_MS.
 *
 * @example
 * sliceEnd(100, 99.9); // 100.3: an idle loop turns fast, and gets slices of SLICE_MS back to back
 * sliceEnd(100, 60); // 104: a 40 ms turn of requests earns 4 ms
 */
export function sliceEnd(now: number, previousEnd: number): number {
  return now + Math.min(LONGEST_SLICE_MS, Math.max(SLICE_MS, BACKGROUND_SHARE * (now - previousEnd)));
}

/**
 * Runs `slice` between requests (a slice per turn of the event loop, see sliceEnd) until it returns true,
 * after the work queued before it.
 */
export function inBackground(slice: Slice): void {
  queued.push(slice);
  if (queued.length > 1) return;
  lastEnd = performance.now();
  const step = () => {
    const until = sliceEnd(performance.now(), lastEnd);
    // Work that ends early leaves the rest of the slice to the next in the queue.
    while (queued.length > 0 && queued[0]!(until)) {
      queued.shift();
      if (performance.now() >= until) break;
    }
    lastEnd = performance.now();
    if (queued.length > 0) setImmediate(step);
  };
  setImmediate(step);
}

/**
 * Calls `tick(owner)` every `ms` between requests while `owner` lives: an owner its app dropped is
 * collected, and its ticks stop. The timer never keeps a process alive.
 *
 * @example
 * everyWhileAlive(search, 1_000, (s) => s.advance(Date.now()));
 */
export function everyWhileAlive<T extends object>(owner: T, ms: number, tick: (owner: T) => void): void {
  if (!BETWEEN_REQUESTS) return;
  const held = new WeakRef(owner);
  const timer = setInterval(() => {
    const alive = held.deref();
    if (alive) tick(alive);
    else clearInterval(timer);
  }, ms);
  (timer as { unref?: () => void }).unref?.();
}

/** Work done in steps: a generator that yields between steps and returns its result. */
export type Steps<T> = Generator<undefined, T, undefined>;

/** Runs `work` to its end now, and returns its result. */
export function finishNow<T>(work: Steps<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs steps of `work` until it ends (its result) or the clock passes `until` (undefined: more to do). */
export function stepUntil<T>(work: Steps<T>, until: number): T | undefined {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() >= until) return undefined;
  }
}
