/** Whether work may run between requests: not on a Worker, whose isolate bills it to some request. */
export const BETWEEN_REQUESTS =
  typeof setImmediate === 'function' &&
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent !== 'Cloudflare-Workers';

/** How long one slice of background work runs before waiting requests get their turn. */
export const SLICE_MS = 0.3;

/** Background work waiting its turn: one at a time, so two search indexes never grow at once. */
const queued: (() => boolean)[] = [];

/**
 * Runs `slice` between requests (one call per turn of the event loop) until it returns true, after
 * the work queued before it. A slice should return within about {@link SLICE_MS}.
 */
export function inBackground(slice: () => boolean): void {
  queued.push(slice);
  if (queued.length > 1) return;
  const step = () => {
    if (queued[0]!()) queued.shift();
    if (queued.length > 0) setImmediate(step);
  };
  setImmediate(step);
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
