// The global timer, not node:timers/promises: the client's tests run it on a fake clock.

/**
 * Resolves true after `ms`, or false as soon as `signal` aborts.
 *
 * @example
 * if (!(await sleep(500, deadline))) return; // the deadline came first
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
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
