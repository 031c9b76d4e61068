import { describe, expect, it } from 'vitest';
import { createReplayCache } from '../../../src/contract/explore/replay-cache.ts';

describe('createReplayCache: what the explorations keep to replay', () => {
  it("keeps the first answers for the run and the latest beyond them, so a long run's replays re-send only what lies past the first", () => {
    const cache = createReplayCache<string>(3, 2);
    const sent: string[] = [];
    const ask = (key: string) => {
      if (cache.get(key) !== undefined) return;
      sent.push(key);
      cache.set(key, key);
    };
    // Two checks in turn judge the same 8 requests; each is asked for twice (sent ahead, then judged).
    for (let pass = 0; pass < 2; pass += 1) {
      for (let i = 0; i < 8; i += 1) {
        ask(`r${i}`);
        ask(`r${i}`);
      }
    }
    // Sent ahead, then judged: sent once. The second check finds r0..r2 (the first kept); the rest were let go.
    expect(sent).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r3', 'r4', 'r5', 'r6', 'r7']);
  });

  it('holds at most first + recent answers, however many are stored', () => {
    const cache = createReplayCache<number>(10, 5);
    for (let i = 0; i < 10_000; i += 1) cache.set(`k${i}`, i);
    const held = Array.from({ length: 10_000 }, (_, i) => cache.get(`k${i}`)).filter((v) => v !== undefined);
    expect(held).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9995, 9996, 9997, 9998, 9999]);
  });

  it('stores an answer sent since in place of the one kept, and gives what it keeps, the first stored first', () => {
    const cache = createReplayCache<string>(2, 2);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, `${key}1`);
    // Kept for the run (a) and among the latest (c): each replaced in place, nothing let go.
    cache.set('a', 'a2');
    cache.set('c', 'c2');
    expect(cache.entries()).toEqual([
      ['a', 'a2'],
      ['b', 'b1'],
      ['d', 'd1'],
      ['c', 'c2'],
    ]);
  });
});
