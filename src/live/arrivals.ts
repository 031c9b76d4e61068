import type { LiveRate } from './live-rate.ts';
import { div, mix, words } from './mix.ts';

/** When the records of one live collection arrive: a seeded schedule from the anchor on. */
export interface ArrivalSchedule {
  /** The instant (ms) live mode starts from: nothing has arrived at it. */
  readonly anchor: number;
  readonly rate: LiveRate;
  readonly seed: number;
  /** The collection's stream (x-collection), so two collections never arrive in step. */
  readonly stream: number;
}

// Arrival k (1, 2, ...) falls in slot k, the milliseconds [edge(k - 1), edge(k)) with edge(k) = anchor +
// floor(k * period / count): slots are at least 10 ms wide (100/s), disjoint and in order, so arrival times
// strictly increase and arrivals up to t are counted in O(1). Within its slot an arrival lies at a seeded
// offset, never on the slot's first millisecond, so nothing arrives at the anchor itself.

// Products are split so that none passes count * period (under 2^53 for every rate parseLiveRate takes),
// however long after the anchor: floor(k * P / c) = floor(k / c) * P + floor((k mod c) * P / c).
const edge = ({ anchor, rate: { count, periodMs } }: ArrivalSchedule, k: number): number =>
  anchor + div(k, count) * periodMs + div((k % count) * periodMs, count);

/** The instant (ms) arrival `k` (1, 2, ...) arrives. */
export function arrivalTime(schedule: ArrivalSchedule, k: number): number {
  const start = edge(schedule, k - 1);
  const width = edge(schedule, k) - start;
  return start + 1 + (mix(schedule.seed, schedule.stream, ...words(k)) % (width - 1));
}

/**
 * How many records have arrived by `t` (ms): those arriving at or before it.
 *
 * @example
 * arrivalsBy(schedule, schedule.anchor); // 0
 */
export function arrivalsBy(schedule: ArrivalSchedule, t: number): number {
  if (t <= schedule.anchor) return 0;
  const { count, periodMs } = schedule.rate;
  // The last slot ended by t: the largest k with edge(k) <= t, that is floor(((t - anchor + 1) * c - 1) / P),
  // split as edge is, with d = t - anchor + 1 = q * P + r.
  const d = t - schedule.anchor + 1;
  const r = d % periodMs;
  const done = div(d - r, periodMs) * count + Math.floor((r * count - 1) / periodMs);
  return arrivalTime(schedule, done + 1) <= t ? done + 1 : done;
}
