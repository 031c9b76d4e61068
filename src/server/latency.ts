import type { MiddlewareHandler, Next } from 'hono';
import { preferencesOf } from '../http/prefer.ts';
import type { RandomStream } from './random-stream.ts';

/** A delay in milliseconds, fixed (min = max) or drawn uniformly from the range. */
export interface LatencyRange {
  readonly min: number;
  readonly max: number;
}

/** Longest delay a request may ask for with `Prefer: delay=`. */
export const MAX_DELAY_MS = 60_000;

/**
 * Delays responses: `Prefer: delay=300` for one request, else the configured latency, drawn from a
 * seeded stream so a session replays the same delays in the same order.
 */
export function latency(configured: LatencyRange | undefined, random: RandomStream): MiddlewareHandler {
  const delayed = async (delay: number, next: Next) => {
    await new Promise((resolve) => setTimeout(resolve, delay));
    await next();
  };
  // Not async: without a delay, next()'s promise is returned as it is, one promise and one await fewer.
  return (c, next) => {
    const asked = preferencesOf(c).get('delay');
    let delay = configured ? (configured.min === configured.max ? configured.min : random.int(configured.min, configured.max)) : 0;
    if (asked !== undefined && /^\d{1,6}$/.test(asked)) {
      delay = Math.min(Number(asked), MAX_DELAY_MS);
      c.header('Preference-Applied', `delay=${delay}`, { append: true });
    }
    return delay > 0 ? delayed(delay, next) : next();
  };
}
