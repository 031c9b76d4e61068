import type { Change } from '../fixtures/record-factory.ts';
import { iso } from '../fixtures/seeded-faker.ts';
import { div, mix } from './mix.ts';

/** At most this many sensors change in live mode, from the collection's first CHOSEN_FROM. */
export const MAX_CHANGING = 100;
const CHOSEN_FROM = 1_000;
/** One sensor in ten of those (a seeded choice) changes. */
const SHARE = 10;
/** Sensors report at least this often while online, whatever the rate. */
const MAX_REPORT_MS = 15 * 60_000;

const SALT = { chosen: 11, cycle: 12, phase: 13, online: 14, report: 15, battery: 16, drained: 17 } as const;

/**
 * How one changing sensor behaves from `start` on, in cycles of `cycle` ms: online for `online` ms, reporting
 * every `report` ms while its battery drains, then offline (a dead battery) until the next cycle, when it comes
 * back with a fresh one. All in whole milliseconds.
 */
export interface SensorCycle {
  /** The sensor's index in its collection. */
  readonly index: number;
  readonly start: number;
  readonly cycle: number;
  readonly online: number;
  readonly report: number;
}

/**
 * The sensors that change in live mode: a seeded tenth of the first 1,000 that are not soft-deleted, at most
 * MAX_CHANGING, each with its seeded cycle (in beats of `unit` ms) starting after `anchor`.
 */
export function changingSensors(
  seed: number,
  stream: number,
  count: number,
  anchor: number,
  unit: number,
  deleted: (index: number) => boolean,
): SensorCycle[] {
  const chosen: SensorCycle[] = [];
  for (let index = 0; index < Math.min(count, CHOSEN_FROM) && chosen.length < MAX_CHANGING; index += 1) {
    const draw = (salt: number) => mix(seed, stream, index, salt);
    if (draw(SALT.chosen) % SHARE !== 0 || deleted(index)) continue;
    const cycle = (60 + (draw(SALT.cycle) % 121)) * unit;
    chosen.push({
      index,
      start: anchor + 1 + (draw(SALT.phase) % cycle),
      cycle,
      online: div(cycle * (70 + (draw(SALT.online) % 21)), 100),
      report: Math.min(MAX_REPORT_MS, (1 + (draw(SALT.report) % 3)) * unit),
    });
  }
  return chosen;
}

/** Reports in one cycle: at 0, report, 2 report, ... before going offline. */
const reportsPerCycle = (s: SensorCycle) => div(s.online - 1, s.report) + 1;

/** Where the sensor is at `t` (at or after its start): its cycles done, and the ms into the current one. */
function position(s: SensorCycle, t: number): { cycles: number; into: number } {
  const cycles = div(t - s.start, s.cycle);
  return { cycles, into: t - s.start - cycles * s.cycle };
}

/** How many changes the sensor has made by `t`: each report, each going offline (0 before its start). */
export function sensorEvents(s: SensorCycle, t: number): number {
  if (t < s.start) return 0;
  const { cycles, into } = position(s, t);
  const perCycle = reportsPerCycle(s) + 1;
  return cycles * perCycle + (into < s.online ? div(into, s.report) + 1 : perCycle);
}

/**
 * The change that makes the sensor's drawn record what it is at `t` (at or after its start): online, its
 * last report within one report interval and its battery 20..100, draining; or offline since the end of its
 * online time, its last report before that and its battery 0..15, with data waiting to be uploaded.
 */
export function sensorAt(seed: number, stream: number, s: SensorCycle, t: number): Change {
  const { cycles, into } = position(s, t);
  const began = s.start + cycles * s.cycle;
  const full = 60 + (mix(seed, stream, s.index, cycles, SALT.battery) % 41);
  return (sensor) => {
    const online = into < s.online;
    const report = online ? div(into, s.report) : reportsPerCycle(s) - 1;
    const lastEvent = began + report * s.report;
    sensor.offline = !online;
    sensor.available = online;
    sensor.pending_upload_data = !online;
    sensor.last_event_at = iso(lastEvent);
    sensor.updated_at = iso(online ? lastEvent : began + s.online);
    if (sensor.battery_level !== undefined)
      sensor.battery_level = online
        ? full - div((full - 20) * report * s.report, s.online)
        : mix(seed, stream, s.index, cycles, SALT.drained) % 16;
  };
}
