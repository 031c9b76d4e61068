import { describe, expect, it } from 'vitest';
import { beat, formatLiveRate, parseLiveRate } from '../../src/live/live-rate.ts';

describe('parseLiveRate', () => {
  it('reads a whole count per s, min, h or d, and writes it back the same', () => {
    for (const text of ['3/min', '5/s', '100/s', '1/d', '12/h']) expect(formatLiveRate(parseLiveRate(text)!)).toBe(text);
    expect(parseLiveRate('3/min')).toEqual({ count: 3, periodMs: 60_000 });
  });

  it('refuses what is not a rate, or faster than 100/s', () => {
    for (const text of ['', '0/s', '101/s', '6001/min', '1.5/s', '3/week', '-1/s', '3 per min', '/s', '3/'])
      expect(parseLiveRate(text), text).toBeUndefined();
    expect(parseLiveRate('6000/min')).toEqual({ count: 6000, periodMs: 60_000 });
  });

  it("measures a rate's beat in whole milliseconds, at least 10", () => {
    expect(beat(parseLiveRate('3/min')!)).toBe(20_000);
    expect(beat(parseLiveRate('100/s')!)).toBe(10);
    expect(beat(parseLiveRate('7/s')!)).toBe(142);
  });
});
