import type { MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** Live data: the instant (ms) the app took the request, which its answer is a function of. */
    moment: number | undefined;
  }
}

/** The header a live answer states its moment in (the spec documents it, marked mock-only). */
export const MOMENT_HEADER = 'tempmon-moment';

/**
 * Reads the clock when the app takes a listing request, before any delay: the answer is the data as it was
 * then, whenever it is sent.
 */
export const takeMoment =
  (clock: () => number): MiddlewareHandler =>
  (c, next) => {
    c.set('moment', clock());
    return next();
  };
