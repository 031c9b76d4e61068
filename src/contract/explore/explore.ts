import fc from 'fast-check';
import { answered, describeAnswers, noEvidence, type Finding, type OperationContext, type Skip } from '../check.ts';
import { REREADS } from '../live-data.ts';
import type { Exchange } from '../types.ts';

/** What a judge made of one generated request. */
export type Judgement =
  | { readonly kind: 'pass' }
  /** The answer cannot be judged (5xx, redirect, no response, a reference page that failed). */
  | { readonly kind: 'unusable'; readonly exchange: Exchange }
  /** What the request needs known lies beyond what --max-pages read (a long listing or search answer). */
  | { readonly kind: 'beyond' }
  | { readonly kind: 'fail'; readonly finding: Finding };

/** Shrinking sends real requests: a bound keeps a failing run short. */
const MAX_SHRINKS = 120;

/**
 * Judges the covering values first (the first failure among them reported as it is), then sends
 * `context.examples` requests generated from `arbitrary` with the run's seed and judges each; the first failure
 * is shrunk to a minimal request (fast-check re-sends smaller candidates) and reported with the seed that
 * replays it. No evidence when no generated request got an answer that could be judged;
 * `beyond()` when every one needed what lies beyond the pages --max-pages lets the kit read.
 */
export async function explore<T>(
  context: OperationContext,
  arbitrary: fc.Arbitrary<T>,
  judge: (value: T) => Promise<Judgement>,
  options: {
    readonly beyond?: () => Skip;
    readonly resync?: (prefetch?: () => Promise<unknown>) => Promise<boolean>;
    /** Sends the requests the judge of `value` will make (into the caches it reads), all at once. */
    readonly prefetch?: (value: T) => Promise<unknown>;
    /**
     * Values judged before the generated ones, whatever --examples (a covering set); `judged(i)` is told of each
     * that got an answer to judge.
     */
    readonly covering?: { readonly values: readonly T[]; readonly judged?: (index: number) => void };
  } = {},
): Promise<Finding[] | Skip> {
  let judged = 0;
  let unknown = 0;
  // Once a failure was judged on data that had not changed, the data is taken to be still: no more re-reads.
  let still = false;
  /**
   * A failure that compares answers read at different moments may be the data's doing: the request is judged
   * again on a fresh read (at most REREADS times), until it passes or fails on a listing that had not changed.
   */
  const judgeFresh = async (value: T): Promise<Judgement> => {
    let judgement = await judge(value);
    for (let n = 0; n < REREADS && judgement.kind === 'fail' && !judgement.finding.absolute && options.resync && !still; n += 1) {
      const changed = await options.resync(options.prefetch && (() => options.prefetch!(value)));
      judgement = await judge(value);
      if (judgement.kind === 'fail' && !changed) still = true;
    }
    return judgement;
  };
  const unusable: Exchange[] = [];
  let failure: Finding | undefined;
  const generated = fc.limitShrink(arbitrary, MAX_SHRINKS);
  // With room for requests in flight, what the next requests need is sent ahead, two concurrencies' worth
  // (a run that fails early wastes little): the same seed gives fc.sample the values fc.check then judges, in order.
  const covering = options.covering?.values ?? [];
  const ahead =
    context.concurrency > 1 && options.prefetch
      ? [...covering, ...fc.sample(generated, { seed: context.seed, numRuns: context.examples })]
      : [];
  let next = 0;
  const sendAhead = (upTo: number) => {
    for (; next < Math.min(upTo, ahead.length); next += 1) options.prefetch!(ahead[next]!).catch(() => undefined);
  };
  let tried = 0;
  /** Counts a judgement: true when the value passed or could not be judged, false when it failed (`failure`). */
  const tally = (judgement: Judgement): boolean => {
    if (judgement.kind === 'unusable') {
      unusable.push(judgement.exchange);
      return true;
    }
    if (judgement.kind === 'beyond') {
      unknown += 1;
      return true;
    }
    judged += 1;
    if (judgement.kind === 'pass') return true;
    failure = judgement.finding;
    return false;
  };
  for (const [i, value] of covering.entries()) {
    tried += 1;
    sendAhead(tried + 2 * context.concurrency);
    const judgement = await judgeFresh(value);
    if (judgement.kind === 'pass' || judgement.kind === 'fail') options.covering?.judged?.(i);
    // Already among the plainest requests of its pair: reported as it is, not shrunk.
    if (!tally(judgement))
      return [{ ...failure!, message: `${failure!.message} (covering request ${i + 1} of ${covering.length})`, seed: context.seed }];
  }
  const property = fc.asyncProperty(generated, async (value) => {
    // Not once a failure was seen: what follows are shrinking's candidates, not the values sampled.
    if (!failure) {
      tried += 1;
      sendAhead(tried + 2 * context.concurrency);
    }
    // The last failure seen is the shrunk counterexample's: shrinking stops on the last candidate that failed.
    return tally(await judgeFresh(value));
  });
  const details = await fc.check(property, { seed: context.seed, numRuns: context.examples });
  if (details.failed && failure) {
    const shrunk = details.numShrinks > 0 ? `, shrunk in ${details.numShrinks} step${details.numShrinks === 1 ? '' : 's'}` : '';
    return [{ ...failure, message: `${failure.message} (request ${details.numRuns} of ${context.examples}${shrunk})`, seed: context.seed }];
  }
  if (details.failed && details.errorInstance) throw details.errorInstance;
  if (judged === 0 && unknown > 0 && options.beyond) return options.beyond();
  if (judged === 0)
    return noEvidence(
      `none of ${covering.length + context.examples} generated requests got an answer to judge: ${describeAnswers(unusable)}`,
    );
  return [];
}

/** The answer is evidence (not a 5xx, a redirect or a transport error), or the judgement that it is not. */
export const usable = (exchange: Exchange): Judgement | undefined => (answered(exchange) ? undefined : { kind: 'unusable', exchange });
