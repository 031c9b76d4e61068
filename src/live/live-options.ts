import { REFERENCE_DATE } from '../fixtures/seeded-faker.ts';
import { DEFAULT_LIVE_RATE, isLiveRate, type LiveRate, parseLiveRate } from './live-rate.ts';

/** What live mode runs on, checked: the arrival rate and the anchor (ms) it runs from. */
export interface LiveSettings {
  readonly rate: LiveRate;
  readonly anchor: number;
}

/** Live mode as createApp takes it (`tempmon serve --live`). */
export interface LiveOptions {
  /** Arrivals, `3/min` or `{ count: 3, periodMs: 60000 }`; default DEFAULT_LIVE_RATE. */
  readonly rate?: LiveRate | string;
  /** The anchor (ms since the epoch): live data equals the seed's data at it. Default and earliest: EARLIEST_ANCHOR. */
  readonly since?: number;
  /** A frozen clock (ms since the epoch), or a clock to read (tests inject one); default Date.now. */
  readonly clock?: number | (() => number);
}

/**
 * The earliest anchor: the seed's reference date, which no generated timestamp passes. An earlier one would
 * let records arrive before records already there.
 */
export const EARLIEST_ANCHOR = REFERENCE_DATE.getTime();

/**
 * The rate, anchor and clock of live options, checked: a RangeError for a rate that is not one, an anchor
 * before EARLIEST_ANCHOR, or a frozen clock before the anchor.
 *
 * @example
 * const { settings, clock } = liveSettings({ rate: '4/s', clock: Date.parse('2026-11-02T00:00:00Z') });
 */
export function liveSettings(options: LiveOptions): { settings: LiveSettings; clock: () => number } {
  const rate = typeof options.rate === 'object' ? options.rate : parseLiveRate(options.rate ?? DEFAULT_LIVE_RATE);
  if (!rate || !isLiveRate(rate))
    throw new RangeError(`live rate must read like 3/min or 5/s (at most 100/s), got ${JSON.stringify(options.rate)}`);
  const anchor = options.since ?? EARLIEST_ANCHOR;
  if (!Number.isSafeInteger(anchor) || anchor < EARLIEST_ANCHOR)
    throw new RangeError(
      `the live anchor must be ${new Date(EARLIEST_ANCHOR).toISOString()} or later (the newest generated record), got ${describe(anchor)}`,
    );
  const { clock } = options;
  if (typeof clock === 'number' && !(Number.isSafeInteger(clock) && clock >= anchor))
    throw new RangeError(`the frozen clock must be at or after the live anchor ${new Date(anchor).toISOString()}, got ${describe(clock)}`);
  return { settings: { rate, anchor }, clock: typeof clock === 'number' ? () => clock : (clock ?? Date.now) };
}

const describe = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms));
