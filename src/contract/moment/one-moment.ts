// The one way a comparison of answers is read when the data may move: at one moment, or "could not", with why.
import { setTimeout as delay } from 'node:timers/promises';
import type { OperationContext } from '../model/context.ts';
import { REREADS, stillDuring } from './live-data.ts';

/** What reading at one moment gave. */
export type Moment<T> =
  /** Read while the first page stood still around it (read twice at once, before and after): one moment, one version. */
  | { readonly kind: 'one'; readonly value: T }
  /** Read while the data moved, but what it shows settles the question whatever the moment (the answers agree now). */
  | { readonly kind: 'settled'; readonly value: T }
  /** No read stood still: why, and the last value read (undefined when no read could tell). */
  | { readonly kind: 'could-not'; readonly why: string; readonly last: T | undefined };

/** How a comparison is read at one moment. */
export interface MomentRules<T> {
  /**
   * A value that answers the question at any moment, still or not: answers sent together agree now. Not for a
   * comparison with a model read across many requests, whose agreeing while the data moved may be the movement's
   * doing (a shift that hides an offset): that needs one moment either way.
   */
  readonly settles?: (value: T) => boolean;
  /** Evidence beyond the first page that a still read was still (a listing read again agrees with the one judged on). */
  readonly confirm?: (value: T) => Promise<boolean>;
  /** Wait between reads (none by default). */
  readonly intervalMs?: number;
  /** Stops the reads (the run's deadline). */
  readonly stop?: AbortSignal;
}

/**
 * Reads `read` (a comparison's requests sent together, judged) up to {@link REREADS} times, between two reads of
 * the first page each, until a read stands at one moment, or settles the question whatever the moment. `read`
 * resolving undefined could not tell (an answer was not a listing), and is read again. Every strategy of the kit
 * for data that moves (a finding rechecked, a check run again, a generated request judged again) reads through it.
 *
 * @example
 * const moment = await atOneMoment(context, recheck, { settles: (holds) => !holds, intervalMs: 1_000, stop: deadline });
 * if (moment.kind === 'could-not') return inconclusive(moment.why);
 */
export async function atOneMoment<T>(
  context: OperationContext,
  read: () => Promise<T | undefined>,
  rules: MomentRules<T> = {},
): Promise<Moment<T>> {
  let last: T | undefined;
  let moved = 0;
  for (let n = 0; n < REREADS && !rules.stop?.aborted; n += 1) {
    if (n > 0 && rules.intervalMs) await delay(rules.intervalMs);
    const { result, still } = await stillDuring(context, read);
    if (result === undefined) continue;
    last = result;
    if (rules.settles?.(result)) return { kind: 'settled', value: result };
    if (still && (!rules.confirm || (await rules.confirm(result)))) return { kind: 'one', value: result };
    moved += 1;
  }
  const why =
    moved > 0
      ? `the data moved under ${moved === 1 ? 'the one read' : `each of ${moved} reads`} that could tell`
      : rules.stop?.aborted
        ? 'the run reached its deadline'
        : 'no read could tell';
  return { kind: 'could-not', why, last };
}
