import { describe, expect, it } from 'vitest';
import { collectionFor } from '../../src/fixtures/collections.ts';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { createRecordFactory } from '../../src/fixtures/record-factory.ts';
import { BANDS } from '../../src/fixtures/vocabularies.ts';
import { arrivalTime } from '../../src/live/arrivals.ts';
import { type LiveCollection, liveCollection } from '../../src/live/live-collection.ts';
import { beat, parseLiveRate } from '../../src/live/live-rate.ts';
import { MAX_CHANGING } from '../../src/live/sensor-changes.ts';
import { spec, validator } from '../helpers.ts';

// Rows are read loosely here: the schema tests pin their types.
// biome-ignore lint/suspicious/noExplicitAny: field access across both record kinds without narrowing each
type Row = Record<string, any>;
const ANCHOR = Date.parse('2026-11-01T06:00:00.000Z');
const rate = parseLiveRate('4/s')!;
const unit = beat(rate);
const live = (schema: string, count: number, seed = 3): LiveCollection =>
  liveCollection(spec.document, createRecordFactory(spec.document, seed), collectionFor(spec.document, schema), count, {
    rate,
    anchor: ANCHOR,
  });
/** The window at t, newest first. */
const windowAt = (c: LiveCollection, t: number): Row[] => {
  const n = c.arrived(t);
  return Array.from({ length: c.size }, (_, p) => c.record(n - p, t));
};
const ms = (iso: string) => Date.parse(iso);
/** Instants over the first minutes, and a day and a month on: never read from the wall clock. */
const MOMENTS = [0, 1, 249, 250, 1_000, 7_777, 60_000, 123_456, 86_400_000, 30 * 86_400_000].map((d) => ANCHOR + d);

/** Each collection with a window size its stories show in. */
const WINDOWS = [
  ['Alert', 30],
  ['Sensor', 120],
] as const;

describe('a live collection', () => {
  it("equals the seed's data at the anchor, byte for byte", () => {
    const data = generateDataset(spec.document, { seed: 3, counts: { alerts: 200, sensors: 300 } });
    expect(JSON.stringify(windowAt(live('Alert', 200), ANCHOR))).toBe(JSON.stringify(data.alerts));
    expect(JSON.stringify(windowAt(live('Sensor', 300), ANCHOR))).toBe(JSON.stringify(data.sensors));
  });

  it('is a pure function of (seed, count, anchor, rate, t): two instances agree, another seed does not', () => {
    const t = ANCHOR + 3_600_000;
    expect(JSON.stringify(windowAt(live('Alert', 50), t))).toBe(JSON.stringify(windowAt(live('Alert', 50), t)));
    expect(JSON.stringify(windowAt(live('Sensor', 80), t))).toBe(JSON.stringify(windowAt(live('Sensor', 80), t)));
    expect(JSON.stringify(windowAt(live('Alert', 50, 4), t))).not.toBe(JSON.stringify(windowAt(live('Alert', 50), t)));
  });

  it('keeps its size: arrivals come in at the head, the oldest leave at the tail', () => {
    const alerts = live('Alert', 40);
    const t = ANCHOR + 5_000;
    const n = alerts.arrived(t);
    expect(n).toBeGreaterThanOrEqual(19);
    const rows = windowAt(alerts, t);
    expect(rows).toHaveLength(40);
    // The seed's first 40 - n records are still there, after the n arrivals.
    const data = generateDataset(spec.document, { seed: 3, counts: { alerts: 40, sensors: 0 } }).alerts as Row[];
    expect(rows.slice(n).map((r) => r.id)).toEqual(data.slice(0, 40 - n).map((r) => r.id));
    expect(rows[0]!.created_at).toBe(new Date(arrivalTime({ anchor: ANCHOR, rate, seed: 3, stream: 1 }, n)).toISOString());
    // A month later every record is an arrival.
    const later = windowAt(alerts, ANCHOR + 30 * 86_400_000);
    expect(later.every((r) => ms(r.created_at) > ANCHOR)).toBe(true);
  });

  it('serves records valid against the spec, newest first, at every moment', () => {
    for (const t of MOMENTS) {
      for (const [schema, count] of [
        ['Alert', 60],
        ['Sensor', 120],
      ] as const) {
        const rows = windowAt(live(schema, count), t);
        for (const [i, row] of rows.entries()) {
          expect(validator.validate(schema, row), `${schema} ${i} at ${t}`).toEqual([]);
          if (i > 0) expect(ms(row.created_at)).toBeLessThan(ms(rows[i - 1]!.created_at));
        }
      }
    }
  });

  it('counts a change whenever a record of the window changes, and never goes back', () => {
    for (const [schema, count] of WINDOWS) {
      const c = live(schema, count);
      let before = JSON.stringify(windowAt(c, ANCHOR));
      let events = c.events(ANCHOR);
      expect(events).toBe(0);
      // Every 113 ms over a minute: the stories of arrivals and sensors' reports and cycles fall in it.
      for (let t = ANCHOR + 113; t < ANCHOR + 60_000; t += 113) {
        const now = JSON.stringify(windowAt(c, t));
        const e = c.events(t);
        expect(e).toBeGreaterThanOrEqual(events);
        if (now !== before) expect(e, `${schema} changed at ${t}`).toBeGreaterThan(events);
        [before, events] = [now, e];
      }
      expect(events).toBeGreaterThan(0);
    }
  });

  it('counts the same changes by t whatever moments were asked before (the count is kept until the next change)', () => {
    for (const [schema, count] of WINDOWS) {
      const [forward, shuffled] = [live(schema, count), live(schema, count)];
      // Every millisecond over five seconds, so every change falls between two asks.
      const moments = Array.from({ length: 5_000 }, (_, i) => ANCHOR + 20_000 + i);
      const counts = moments.map((t) => forward.events(t));
      for (let i = 0; i < moments.length; i += 1) {
        const k = (i * 3_989) % moments.length;
        expect(shuffled.events(moments[k]!), `${schema} at +${moments[k]! - ANCHOR} ms`).toBe(counts[k]);
      }
    }
  });

  it("names each record's own changes: a record is the same whenever its count of them is", () => {
    for (const [schema, count] of WINDOWS) {
      const c = live(schema, count);
      const seen = new Map<number, { version: number; json: string }>();
      for (let t = ANCHOR + 97; t < ANCHOR + 60_000; t += 97) {
        const n = c.arrived(t);
        for (let p = 0; p < count; p += 1) {
          const r = n - p;
          const [version, json] = [c.version(r, t), JSON.stringify(c.record(r, t))];
          const before = seen.get(r);
          if (before) {
            expect(version, `${schema} record ${r} at ${t}`).toBeGreaterThanOrEqual(before.version);
            if (version === before.version) expect(json, `${schema} record ${r} at ${t}`).toBe(before.json);
          }
          seen.set(r, { version, json });
        }
      }
    }
  });
});

describe('live alerts', () => {
  it("keep the fixtures' rules at every moment: created <= updated <= t, a trigger and a long excursion exactly when breached, known bands", () => {
    const alerts = live('Alert', 300, 11);
    for (const t of MOMENTS) {
      for (const a of windowAt(alerts, t)) {
        expect(ms(a.created_at)).toBeLessThanOrEqual(ms(a.updated_at));
        expect(ms(a.updated_at)).toBeLessThanOrEqual(t);
        const breached = ['triggered', 'acknowledged', 'resolved'].includes(a.status);
        expect(a.trigger_id !== undefined).toBe(breached);
        if (breached) expect(a.excursion_minutes).toBeGreaterThanOrEqual(a.allowance_minutes);
        else expect(a.excursion_minutes).toBeLessThan(a.allowance_minutes);
        const band = BANDS.find((b) => a.code.startsWith(`${b.value.prefix}-`))!.value;
        expect(band.ranges).toContainEqual([a.min_temp, a.max_temp]);
        expect(Object.values(a)).not.toContain(null);
      }
    }
  });

  it('play a story: each arrival moves through its statuses in order, updated_at at each step, then holds still', () => {
    const alerts = live('Alert', 10);
    const k = 7;
    const arrived = arrivalTime({ anchor: ANCHOR, rate, seed: 3, stream: 1 }, k);
    const seen: string[] = [];
    const updates = new Set<string>();
    for (let t = arrived; t <= arrived + 30 * unit; t += 10) {
      const a = alerts.record(k, t);
      if (seen.at(-1) !== a.status) seen.push(a.status as string);
      updates.add(a.updated_at as string);
    }
    expect([
      ['triggered', 'acknowledged', 'resolved'],
      ['active', 'triggered', 'resolved'],
      ['active', 'expired'],
    ]).toContainEqual(seen);
    expect(updates.size).toBe(3);
    expect(alerts.record(k, arrived + 30 * unit)).toEqual(alerts.record(k, arrived + 300 * unit));
    expect(alerts.unsettled(arrived + 30 * unit)).not.toContain(k);
  });

  it('tell every story over many arrivals, at about the shares drawn', () => {
    const alerts = live('Alert', 1);
    const finals = Array.from({ length: 600 }, (_, i) => alerts.record(i + 1, ANCHOR + 86_400_000).status);
    const share = (s: string) => finals.filter((x) => x === s).length / finals.length;
    expect(share('resolved')).toBeGreaterThan(0.7);
    expect(share('expired')).toBeGreaterThan(0.1);
  });
});

describe('live sensors', () => {
  it('change a bounded, seeded share; the others stay as the seed made them', () => {
    const count = 2_000;
    const sensors = live('Sensor', count);
    const t = ANCHOR + 86_400_000;
    const still = generateDataset(spec.document, { seed: 3, counts: { alerts: 0, sensors: count } }).sensors as Row[];
    const changed = windowAt(sensors, t).filter((s, i) => JSON.stringify(s) !== JSON.stringify(still[i]));
    expect(changed.length).toBeGreaterThan(10);
    expect(changed.length).toBeLessThanOrEqual(MAX_CHANGING);
    expect(sensors.unsettled(t).length).toBeLessThanOrEqual(MAX_CHANGING);
  });

  it("go offline and come back, keeping the fleet's rules at every moment", () => {
    const sensors = live('Sensor', 150);
    const states = new Map<number, Set<boolean>>();
    for (let t = ANCHOR; t < ANCHOR + 3_600_000; t += 13_000) {
      for (const [i, s] of windowAt(sensors, t).entries()) {
        if (s.battery_level !== undefined) expect(s.battery_level).toBeGreaterThanOrEqual(0);
        if (s.battery_level !== undefined) expect(s.battery_level).toBeLessThanOrEqual(100);
        expect(ms(s.created_at)).toBeLessThanOrEqual(ms(s.updated_at));
        expect(ms(s.updated_at)).toBeLessThanOrEqual(t);
        if (s.last_event_at) expect(ms(s.last_event_at)).toBeGreaterThanOrEqual(ms(s.created_at));
        // Restated for live data, where "now" is the record's own last change: an online sensor's last
        // report is within a quarter hour of it; an offline one's came before it went offline.
        if (!s.offline && s.last_event_at) expect(ms(s.updated_at) - ms(s.last_event_at)).toBeLessThanOrEqual(15 * 60_000);
        if (s.offline && s.last_event_at) expect(ms(s.last_event_at)).toBeLessThanOrEqual(ms(s.updated_at));
        if (s.offline) expect(s.available).toBe(false);
        if (s.soft_deleted) expect(s.available).toBe(false);
        if (!states.has(i)) states.set(i, new Set());
        states.get(i)!.add(s.offline as boolean);
      }
    }
    // Some sensor was seen both online and offline within the hour.
    expect([...states.values()].some((seen) => seen.size === 2)).toBe(true);
  });
});
