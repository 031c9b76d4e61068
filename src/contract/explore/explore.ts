import fc from 'fast-check';
import { answered, describeAnswers } from '../model/answers.ts';
import { noEvidence, type Skip } from '../model/skip.ts';
import type { Finding } from '../model/check.ts';
import type { OperationContext } from '../model/context.ts';
import { REREADS, stillDuring } from '../moment/live-data.ts';
import type { Exchange } from '../types.ts';
import type { Resync } from './exploration-state.ts';

/** What a judge made of one generated request. */
export type Judgement =
  | { readonly kind: 'pass' }
  /** The answer cannot be judged (5xx, redirect, no response, a reference page that failed). */
  | { readonly kind: 'unusable'; readonly exchange: Exchange }
  /** What the request needs known lies beyond what --max-pages read (a long listing or search answer). */
  | { readonly kind: 'beyond' }
  | { readonly kind: 'fail'; readonly finding: Finding };

/** Failures no still moment confirmed, kept for the run to recheck: each recheck costs re-reads. */
const SET_ASIDE = 6;

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
    readonly resync?: (prefetch?: () => Promise<unknown>) => Promise<Resync>;
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
  // Failures no still moment confirmed: how many, and the first SET_ASIDE of them.
  let setAsides = 0;
  const unconfirmed: Finding[] = [];
  /**
   * `value` judged again on a fresh read of the listing (the model re-synced, what the judge sends sent with
   * it), between two reads of the first page. A failure is `still` when they agree and, since an edit deep in
   * the listing does not show on its first page, the listing read once more agrees with the one judged on.
   */
  const judgeAtOnce = async (value: T) => {
    const { result, still: quiet } = await stillDuring(context, async () => {
      const resync = await options.resync!(options.prefetch && (() => options.prefetch!(value)));
      return { changed: resync.changed, read: resync.read, judgement: await judge(value) };
    });
    const failed = result.judgement.kind === 'fail';
    // A listing too long to read again can only be told still by its first page.
    const agrees = async () => result.read === undefined || (await options.resync!()).read === result.read;
    return { result, still: quiet && failed && (await agrees()) };
  };
  /**
   * A failure that compares answers read at different moments may be the data's doing: the request is judged
   * again at one moment (at most REREADS times) until it passes, or fails between two reads of the first page
   * that agree (`confirmed`). A failure no still moment confirmed is returned as it is, for the run to recheck.
   */
  const judgeFresh = async (value: T): Promise<{ judgement: Judgement; confirmed: boolean }> => {
    let judgement = await judge(value);
    if (judgement.kind !== 'fail' || judgement.finding.absolute || !options.resync || still) return { judgement, confirmed: true };
    // Data too quick for any still moment: past a few, failures are set aside as they are, without re-reads.
    if (setAsides >= REREADS) return { judgement, confirmed: false };
    for (let n = 0; n < REREADS; n += 1) {
      const { result, still: quiet } = await judgeAtOnce(value);
      judgement = result.judgement;
      if (judgement.kind !== 'fail') break;
      if (quiet) {
        if (!result.changed) still = true;
        return { judgement, confirmed: true };
      }
    }
    return { judgement, confirmed: false };
  };
  /** What the run re-checks a failure with when the data changed: the failing request judged again at one moment. */
  const recheckOf = (value: T) => async (): Promise<boolean | undefined> => {
    const { judgement } = (await judgeAtOnce(value)).result;
    return judgement.kind === 'fail' ? true : judgement.kind === 'pass' ? false : undefined;
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
  const tally = (judgement: Judgement, value: T): boolean => {
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
    failure = withRecheck(judgement.finding, value);
    return false;
  };
  const withRecheck = (finding: Finding, value: T): Finding =>
    finding.absolute || finding.recheck || !options.resync ? finding : { ...finding, recheck: recheckOf(value) };
  /**
   * Failures no still moment confirmed (the data changed under each judgement at one moment): set aside, a few,
   * for the run to recheck, while the exploration goes on. One that stood would have stopped it.
   */
  const setAside = (finding: Finding, value: T, where: string) => {
    judged += 1;
    setAsides += 1;
    if (unconfirmed.length < SET_ASIDE)
      unconfirmed.push({ ...withRecheck(finding, value), message: `${finding.message} (${where})`, seed: context.seed });
  };
  for (const [i, value] of covering.entries()) {
    tried += 1;
    sendAhead(tried + 2 * context.concurrency);
    const { judgement, confirmed } = await judgeFresh(value);
    if (judgement.kind === 'pass' || judgement.kind === 'fail') options.covering?.judged?.(i);
    if (judgement.kind === 'fail' && !confirmed) {
      setAside(judgement.finding, value, `covering request ${i + 1} of ${covering.length}`);
      continue;
    }
    // Already among the plainest requests of its pair: reported as it is, not shrunk.
    if (!tally(judgement, value))
      return [{ ...failure!, message: `${failure!.message} (covering request ${i + 1} of ${covering.length})`, seed: context.seed }];
  }
  const property = fc.asyncProperty(generated, async (value) => {
    // Not once a failure was seen: what follows are shrinking's candidates, not the values sampled.
    const shrinking = failure !== undefined;
    if (!shrinking) {
      tried += 1;
      sendAhead(tried + 2 * context.concurrency);
    }
    const { judgement, confirmed } = await judgeFresh(value);
    // A candidate's failure no still moment confirmed may be the data's doing: shrinking must not trade the
    // failure found for it.
    if (judgement.kind === 'fail' && !confirmed) {
      if (!shrinking) setAside(judgement.finding, value, `request ${tried} of ${context.examples}`);
      return true;
    }
    // The last failure seen is the shrunk counterexample's: shrinking stops on the last candidate that failed.
    return tally(judgement, value);
  });
  const details = await fc.check(property, { seed: context.seed, numRuns: context.examples });
  if (details.failed && failure) {
    const shrunk = details.numShrinks > 0 ? `, shrunk in ${details.numShrinks} step${details.numShrinks === 1 ? '' : 's'}` : '';
    return [{ ...failure, message: `${failure.message} (request ${details.numRuns} of ${context.examples}${shrunk})`, seed: context.seed }];
  }
  if (details.failed && details.errorInstance) throw details.errorInstance;
  if (unconfirmed.length > 0) return unconfirmed;
  if (judged === 0 && unknown > 0 && options.beyond) return options.beyond();
  if (judged === 0)
    return noEvidence(
      `none of ${covering.length + context.examples} generated requests got an answer to judge: ${describeAnswers(unusable)}`,
    );
  return [];
}

/** The answer is evidence (not a 5xx, a redirect or a transport error), or the judgement that it is not. */
export const usable = (exchange: Exchange): Judgement | undefined => (answered(exchange) ? undefined : { kind: 'unusable', exchange });
