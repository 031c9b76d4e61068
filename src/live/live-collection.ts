import type { OpenAPIObject, SchemaObject } from 'openapi3-ts/oas31';
import type { Collection } from '../fixtures/collections.ts';
import type { ApiRecord, RecordFactory } from '../fixtures/record-factory.ts';
import { resolveRef } from '../spec/resolve-ref.ts';
import { alertLifecycle, alertStage, LIFECYCLE_BEATS, STAGES, stageAt } from './alert-lifecycle.ts';
import { type ArrivalSchedule, arrivalsBy, arrivalTime } from './arrivals.ts';
import type { LiveSettings } from './live-options.ts';
import { beat } from './live-rate.ts';
import { changingSensors, type SensorCycle, sensorAt, sensorEvents } from './sensor-changes.ts';

/**
 * One collection in live mode: a window of `size` records, a pure function of (seed, count, anchor, rate, t).
 * Record numbers name records for good: r >= 1 is arrival r, r <= 0 the seed's record -r. At t, with n
 * arrived, position p (0 = newest) holds record n - p.
 */
export interface LiveCollection {
  readonly size: number;
  /** Whether records arrive (the oldest then leave the window); false for one that only changes, or holds still. */
  readonly arrives: boolean;
  /** The mean gap between arrivals (ms), the unit its changes are timed in (see beat in live-rate.ts). */
  readonly beat: number;
  /** How many records have arrived by t (0 for a collection that only changes, or holds still). */
  arrived(t: number): number;
  /** How many changes (arrivals, updates) by t: it moves whenever a record of the window changes. */
  events(t: number): number;
  /** Record r as served at t. */
  record(r: number, t: number): ApiRecord;
  /** How many times record r has changed by t (0 for one that never does): record(r, t) is a function of it. */
  version(r: number, t: number): number;
  /** The records that may still change after t (few: arrivals in their story, sensors in their cycles). */
  unsettled(t: number): readonly number[];
  /** The newest arrival that will not change after t (every arrival up to it is final); 0 when none. */
  settled(t: number): number;
}

/** How a collection lives: its records arrive (and may play a story), change in place, or hold still. */
type Kind = 'arrivals' | 'changes' | 'still';

/**
 * The live form of a collection of `count` records. Alerts arrive at the rate and play a story; sensors
 * change in place (a bounded share); another listing's records arrive when its first sort key is a
 * newest-first date-time (the arrival instant), and hold still otherwise.
 *
 * @example
 * const alerts = liveCollection(document, factory, collectionFor(document, 'Alert'), 300, { rate, anchor });
 * alerts.record(alerts.arrived(t), t); // the newest alert at t
 */
export function liveCollection(
  document: OpenAPIObject,
  factory: RecordFactory,
  collection: Collection,
  count: number,
  settings: LiveSettings,
): LiveCollection {
  const { seed } = factory;
  const { schema, stream } = collection;
  const schedule: ArrivalSchedule = { anchor: settings.anchor, rate: settings.rate, seed, stream };
  const unit = beat(settings.rate);
  const kind = kindOf(document, collection);
  const still = (r: number) => factory.record(schema, -r);

  if (kind === 'changes') {
    const sensors = changingSensors(
      seed,
      stream,
      count,
      settings.anchor,
      unit,
      (i) => factory.record(schema, i).soft_deleted !== undefined,
    );
    const byIndex = new Map<number, SensorCycle>(sensors.map((s) => [s.index, s]));
    return {
      size: count,
      arrives: false,
      beat: unit,
      arrived: () => 0,
      events: (t) => sensors.reduce((sum, s) => sum + sensorEvents(s, t), 0),
      record(r, t) {
        const s = byIndex.get(-r);
        return s && t >= s.start ? factory.record(schema, -r, sensorAt(seed, stream, s, t)) : still(r);
      },
      version(r, t) {
        const s = byIndex.get(-r);
        return s ? sensorEvents(s, t) : 0;
      },
      unsettled: () => sensors.map((s) => -s.index),
      settled: () => 0,
    };
  }
  if (kind === 'still')
    return {
      size: count,
      arrives: false,
      beat: unit,
      arrived: () => 0,
      events: () => 0,
      record: (r) => still(r),
      version: () => 0,
      unsettled: () => [],
      settled: () => 0,
    };

  const plays = schema === 'Alert';
  const span = plays ? LIFECYCLE_BEATS * unit : 0;
  const lifecycle = (k: number) => alertLifecycle(seed, stream, k, arrivalTime(schedule, k), unit);
  // The count at t holds until the next arrival or stage after t: kept, since many requests come between
  // two changes (and every answer, replayed or not, is keyed by it).
  let known = { from: Number.NaN, until: Number.NaN, events: 0 };
  return {
    size: count,
    arrives: true,
    beat: unit,
    arrived: (t) => arrivalsBy(schedule, t),
    events(t) {
      if (t >= known.from && t < known.until) return known.events;
      const arrived = arrivalsBy(schedule, t);
      let until = arrivalTime(schedule, arrived + 1);
      // Arrivals before t - span have played every stage; the few since, as far as each has come.
      const done = plays ? arrivalsBy(schedule, t - span) : arrived;
      let events = done * STAGES;
      for (let k = done + 1; k <= arrived; k += 1) {
        const story = lifecycle(k);
        const stage = stageAt(story, t);
        events += stage;
        if (stage < STAGES) until = Math.min(until, story.times[stage]!);
      }
      known = { from: t, until, events: plays ? events : arrived };
      return known.events;
    },
    record(r, t) {
      if (r <= 0) return still(r);
      const at = arrivalTime(schedule, r);
      if (!plays) return factory.arrival(schema, r, at);
      const story = lifecycle(r);
      return factory.arrival(schema, r, at, alertStage(seed, stream, r, story, stageAt(story, t)));
    },
    version: (r, t) => (r <= 0 || !plays ? 0 : stageAt(lifecycle(r), t)),
    unsettled(t) {
      if (!plays) return [];
      const arrived = arrivalsBy(schedule, t);
      const from = arrivalsBy(schedule, t - span) + 1;
      return Array.from({ length: Math.max(0, arrived - from + 1) }, (_, i) => from + i);
    },
    settled: (t) => arrivalsBy(schedule, t - span),
  };
}

/** Alerts arrive, sensors change; another listing arrives when ordered by a newest-first date-time. */
function kindOf(document: OpenAPIObject, collection: Collection): Kind {
  if (collection.schema === 'Alert') return 'arrivals';
  if (collection.schema === 'Sensor') return 'changes';
  const first = collection.order[0];
  const component = document.components?.schemas?.[collection.schema];
  if (first?.direction !== 'desc' || !component) return 'still';
  const property = resolveRef<SchemaObject>(document, component).properties?.[first.field];
  return property && resolveRef<SchemaObject>(document, property).format === 'date-time' ? 'arrivals' : 'still';
}
