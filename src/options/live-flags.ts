// Live mode's options, read once for `tempmon serve` and every runtime entry. No node: import.
import { EARLIEST_ANCHOR, type LiveOptions } from '../live/live-options.ts';
import { DEFAULT_LIVE_RATE, formatLiveRate, MAX_ARRIVALS_PER_SECOND, parseLiveRate } from '../live/live-rate.ts';
import type { OptionFailure } from './option-parsers.ts';
import { type FlagValues, flagText } from './parse-flags.ts';

/** The refusal of live mode together with a data file. */
export const LIVE_WITH_DATA = '--live cannot be combined with --data: live mode serves generated data';

/** The help of the live flags (see serveFlags). */
export const LIVE_FLAGS = [
  {
    name: 'live',
    help: ['live data: new alerts arrive (the oldest leave), alerts change status,', 'some sensors go offline and come back'],
  },
  {
    name: 'live-rate',
    value: 'R',
    help: [`with --live, arrivals per s, min, h or d (default ${DEFAULT_LIVE_RATE}; at most ${MAX_ARRIVALS_PER_SECOND}/s)`],
  },
  {
    name: 'live-since',
    value: 'ISO',
    help: [
      `with --live, the instant the data starts to live from (default and earliest`,
      `${new Date(EARLIEST_ANCHOR).toISOString()}, just after the newest generated record)`,
    ],
  },
  { name: 'clock', value: 'ISO', help: ['a frozen clock: serve the live data as it is at ISO (implies --live)'] },
] as const;

/** An ISO 8601 instant: a date, or a date and time with a zone (a time without one would depend on the machine). */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Live mode from parsed flags (or their variables: TEMPMON_LIVE=1, TEMPMON_LIVE_RATE...); undefined without
 * `--live` or `--clock`. The first refusal is made by `fail`, in `tempmon serve`'s words.
 *
 * @example
 * liveFlags({ live: true, 'live-rate': '4/s' }, (m) => new Error(m)); // { rate: { count: 4, periodMs: 1000 } }
 */
export function liveFlags(values: FlagValues, dataPath: string | undefined, fail: OptionFailure): LiveOptions | undefined {
  const text = (name: string) => flagText(values, name);
  const given = values.live;
  if (typeof given === 'string' && !/^(1|true|0|false)$/.test(given))
    throw fail(`TEMPMON_LIVE must be 1 or true (or 0 or false), got ${JSON.stringify(given)}`);
  const clockText = text('clock');
  const live = given === true || given === '1' || given === 'true' || clockText !== undefined;
  const rateText = text('live-rate');
  const sinceText = text('live-since');
  if (!live) {
    if (rateText !== undefined) throw fail('--live-rate needs --live');
    if (sinceText !== undefined) throw fail('--live-since needs --live');
    return undefined;
  }
  if (dataPath !== undefined) throw fail(LIVE_WITH_DATA);
  const rate = rateText === undefined ? undefined : parseLiveRate(rateText);
  if (rateText !== undefined && !rate)
    throw fail(
      `--live-rate must be a whole number per s, min, h or d, such as 3/min or 5/s (at most ${MAX_ARRIVALS_PER_SECOND}/s), got ${JSON.stringify(rateText)}`,
    );
  const since = sinceText === undefined ? EARLIEST_ANCHOR : instant('live-since', sinceText, fail);
  if (since < EARLIEST_ANCHOR)
    throw fail(`--live-since must be ${new Date(EARLIEST_ANCHOR).toISOString()} or later (the newest generated record), got ${sinceText}`);
  const clock = clockText === undefined ? undefined : instant('clock', clockText, fail);
  if (clock !== undefined && clock < since)
    throw fail(`--clock must not be before the live anchor ${new Date(since).toISOString()}, got ${clockText}`);
  return { ...(rate ? { rate } : {}), since, ...(clock === undefined ? {} : { clock }) };
}

function instant(name: string, text: string, fail: OptionFailure): number {
  const ms = INSTANT.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isSafeInteger(ms))
    throw fail(`--${name} must be an ISO 8601 instant such as 2026-11-02T08:30:00Z, got ${JSON.stringify(text)}`);
  return ms;
}

/** The banner's words for live mode: `live: 3/min arrivals from 2026-11-01T06:00:00.000Z, wall clock`. */
export function describeLive(live: LiveOptions): string {
  const rate = typeof live.rate === 'object' ? formatLiveRate(live.rate) : (live.rate ?? DEFAULT_LIVE_RATE);
  const since = new Date(live.since ?? EARLIEST_ANCHOR).toISOString();
  const clock = typeof live.clock === 'number' ? `clock frozen at ${new Date(live.clock).toISOString()}` : 'wall clock';
  return `${rate} arrivals from ${since}, ${clock}`;
}
