/** How often records arrive in live mode: `count` arrivals every `periodMs` milliseconds (`3/min`). */
export interface LiveRate {
  readonly count: number;
  readonly periodMs: number;
}

const UNITS: Readonly<Record<string, number>> = { s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** The fastest rate `--live-rate` takes, in arrivals per second. */
export const MAX_ARRIVALS_PER_SECOND = 100;

/** The default of `--live-rate`: a few new alerts a minute, as a busy cold chain's dashboard shows them. */
export const DEFAULT_LIVE_RATE = '3/min';

/**
 * Reads a rate such as `3/min` or `5/s` (a whole count per s, min, h or d, at most 100/s); undefined when the
 * text is not one.
 *
 * @example
 * parseLiveRate('3/min'); // { count: 3, periodMs: 60000 }
 */
export function parseLiveRate(text: string): LiveRate | undefined {
  const match = /^([1-9]\d{0,6})\/(s|min|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const rate = { count: Number(match[1]), periodMs: UNITS[match[2]!]! };
  return isLiveRate(rate) ? rate : undefined;
}

/** Whether a rate is one live mode runs at: whole numbers, at least one arrival, at most 100 a second. */
export const isLiveRate = ({ count, periodMs }: LiveRate): boolean =>
  Number.isSafeInteger(count) && Number.isSafeInteger(periodMs) && count >= 1 && count * 1_000 <= MAX_ARRIVALS_PER_SECOND * periodMs;

/** The rate as `--live-rate` writes it: `3/min`. */
export function formatLiveRate({ count, periodMs }: LiveRate): string {
  const unit = Object.entries(UNITS).find(([, ms]) => ms === periodMs)?.[0] ?? `${periodMs}ms`;
  return `${count}/${unit}`;
}

/**
 * The live mode's unit of time: the mean gap between arrivals, in whole milliseconds (at least 10, at 100/s).
 * Lifecycles and sensor cycles are measured in it, so a faster rate plays the same story faster.
 */
export const beat = ({ count, periodMs }: LiveRate): number => Math.floor(periodMs / count);
