import type { Change } from '../fixtures/record-factory.ts';
import { iso, uuidOf } from '../fixtures/seeded-faker.ts';
import { mix, words } from './mix.ts';

/**
 * The stories an arriving alert may play, each in three stages (arrival, then two updates), with how often
 * each is played (percent): breached at once, acknowledged, then resolved; watched, breached later, resolved
 * without an acknowledgement; watched, a short excursion within the allowance, then expired.
 */
const STORIES = [
  { share: 50, statuses: ['triggered', 'acknowledged', 'resolved'] },
  { share: 30, statuses: ['active', 'triggered', 'resolved'] },
  { share: 20, statuses: ['active', 'active', 'expired'] },
] as const;

/** Every story has this many stages; the event count relies on it. */
export const STAGES = 3;

/** The longest a story runs, in beats (see beat in live-rate.ts): the first update 2..8 beats after arrival, the second 4..20 after it. */
export const LIFECYCLE_BEATS = 8 + 20;

/** Salts of the lifecycle's draws, apart from the arrival schedule's. */
const SALT = { story: 1, first: 2, second: 3, excursion: 4, trigger: 5 } as const;

/** An arriving alert's story: the instants (ms) of its three stages. */
export interface AlertLifecycle {
  readonly story: number;
  readonly times: readonly [number, number, number];
}

/** Arrival `k`'s seeded draws, by salt. */
const drawsOf =
  (seed: number, stream: number, k: number) =>
  (salt: number): number =>
    mix(seed, stream, ...words(k), salt);

/** The seeded story of arrival `k`, which arrived at `at`, in a collection whose beat is `unit` ms. */
export function alertLifecycle(seed: number, stream: number, k: number, at: number, unit: number): AlertLifecycle {
  const draw = drawsOf(seed, stream, k);
  const roll = draw(SALT.story) % 100;
  const story = roll < STORIES[0].share ? 0 : roll < STORIES[0].share + STORIES[1].share ? 1 : 2;
  const first = at + (2 + (draw(SALT.first) % 7)) * unit;
  const second = first + (4 + (draw(SALT.second) % 17)) * unit;
  return { story, times: [at, first, second] };
}

/** How many stages of a story have begun by `t` (1..3; the first at its arrival). */
export function stageAt({ times }: AlertLifecycle, t: number): number {
  return t >= times[2] ? 3 : t >= times[1] ? 2 : 1;
}

/**
 * The change that makes arrival `k`'s drawn alert what it is at `stage`: its status, excursion, trigger and
 * updated_at. A breached alert has been outside its band for its allowance or more and carries a trigger;
 * the others stay within the allowance, as the fixtures' rules ask.
 */
export function alertStage(seed: number, stream: number, k: number, lifecycle: AlertLifecycle, stage: number): Change {
  const draw = drawsOf(seed, stream, k);
  const status = STORIES[lifecycle.story]!.statuses[stage - 1]!;
  return (alert) => {
    const allowance = Number(alert.allowance_minutes);
    const breached = status === 'triggered' || status === 'acknowledged' || status === 'resolved';
    alert.status = status;
    alert.updated_at = iso(lifecycle.times[stage - 1]!);
    alert.trigger_id = breached
      ? uuidOf(draw(SALT.trigger), draw(SALT.trigger + 16), draw(SALT.trigger + 32), draw(SALT.trigger + 48))
      : undefined;
    alert.excursion_minutes = breached
      ? allowance + (draw(SALT.excursion) % (2 * allowance + 1))
      : stage === 1
        ? 0
        : 1 + (draw(SALT.excursion) % Math.max(1, Math.floor(allowance / 2)));
  };
}
