import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** A seeded sequence of random draws: the same seed and order of calls give the same values. */
export interface RandomStream {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

/**
 * A stream for one purpose (latency, faults...) of a seed. Separate streams keep one feature's draws
 * from shifting another's, so a flaky session replays exactly from its seed and request order.
 */
export function createRandomStream(seed: number, purpose: number): RandomStream {
  const rng = xoroshiro128plus(((seed >>> 0) ^ Math.imul(purpose + 1, 0x9e3779b1)) >>> 0);
  return { next: () => uniformFloat64(rng), int: (min, max) => uniformInt(rng, min, max) };
}
