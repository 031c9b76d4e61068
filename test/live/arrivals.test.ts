import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ArrivalSchedule, arrivalsBy, arrivalTime } from '../../src/live/arrivals.ts';
import { parseLiveRate } from '../../src/live/live-rate.ts';

const ANCHOR = Date.parse('2026-11-01T06:00:00.000Z');
const schedule = (rate: string, seed = 1, stream = 1): ArrivalSchedule => ({ anchor: ANCHOR, rate: parseLiveRate(rate)!, seed, stream });
const rates = fc.constantFrom('100/s', '7/s', '4/s', '3/min', '1/h', '5/d', '6000/min');

describe('the arrival schedule', () => {
  it('has nothing arrived at the anchor or before it', () => {
    for (const rate of ['100/s', '3/min']) {
      expect(arrivalsBy(schedule(rate), ANCHOR)).toBe(0);
      expect(arrivalsBy(schedule(rate), ANCHOR - 1_000_000)).toBe(0);
    }
  });

  it('counts arrival k exactly from its instant on (property over rates, seeds, and k up to 30,000 years on)', () => {
    fc.assert(
      fc.property(rates, fc.nat(2 ** 31), fc.integer({ min: 1, max: 1_000_000_000 }), (rate, seed, drawn) => {
        const s = schedule(rate, seed);
        const k = 1 + (drawn % (s.rate.count * Math.floor(1e15 / s.rate.periodMs)));
        const at = arrivalTime(s, k);
        expect(at).toBeGreaterThan(ANCHOR);
        expect(arrivalTime(s, k + 1)).toBeGreaterThan(at);
        expect(arrivalsBy(s, at)).toBe(k);
        expect(arrivalsBy(s, at - 1)).toBe(k - 1);
      }),
    );
  });

  it('keeps the rate: count arrivals per period, give or take the one in flight', () => {
    for (const rate of ['100/s', '4/s', '3/min']) {
      const s = schedule(rate);
      for (const periods of [1, 10, 1_000, 123_457]) {
        const n = arrivalsBy(s, ANCHOR + periods * s.rate.periodMs);
        expect(Math.abs(n - periods * s.rate.count)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('is seeded: another seed or stream arrives at other instants, the same one at the same', () => {
    const times = (s: ArrivalSchedule) => Array.from({ length: 20 }, (_, i) => arrivalTime(s, i + 1));
    expect(times(schedule('4/s', 1))).toEqual(times(schedule('4/s', 1)));
    expect(times(schedule('4/s', 2))).not.toEqual(times(schedule('4/s', 1)));
    expect(times(schedule('4/s', 1, 2))).not.toEqual(times(schedule('4/s', 1, 1)));
  });
});
