import fc from 'fast-check';
import { answered, describeAnswers } from '../model/answers.ts';
import { noEvidence, partly, type Partly, type Skip } from '../model/skip.ts';
import type { Finding, Exchange } from '../types.ts';
import type { OperationContext } from '../model/context.ts';
import { requestArbitrary, type GeneratedRequest, type ResolvedRequest } from '../material/generated-request.ts';
import { needListing, tooLong, type Listing } from '../model/listing.ts';
import { headKey, headQuery } from '../model/head-read.ts';
import { explorationOf, type ExplorationState, type Resync } from './exploration-state.ts';

/** What a judge made of one generated request. */
export type Judgement =
  | { readonly kind: 'pass' }
  /** The answer cannot be judged (5xx, redirect, no response, a reference page that failed). */
  | { readonly kind: 'unusable'; readonly exchange: Exchange }
  /** What the request needs known lies beyond what --max-pages read (a long listing or search answer). */
  | { readonly kind: 'beyond' }
  | { readonly kind: 'fail'; readonly finding: Finding };

/**
 * A failure judged the older way because the versions rule could not tell: it carries why (Failure.unplaced), for
 * the reason it gives if it ends inconclusive.
 *
 * @example
 * if (verdict.kind === 'unknown') return unplacedBy(verdict.why, fail(where, expected, actual));
 */
export const unplacedBy = (why: string, judgement: Judgement): Judgement =>
  judgement.kind === 'fail' ? { kind: 'fail', finding: { ...judgement.finding, unplaced: why } } : judgement;

/** Failures judged while the listing moved, kept for the run to settle: each costs a check run again. */
const SET_ASIDE = 6;

/** Fresh reads of the listing a failure is judged on, and failures judged so before the rest are set aside as they are. */
const FRESH_READS = 3;

/** Shrinking sends real requests: a bound keeps a failing run short. */
const MAX_SHRINKS = 120;

/** What an exploration is told of, besides its judge. */
export interface ExploreOptions<T> {
  readonly beyond?: () => Skip;
  readonly resync?: (prefetch?: () => Promise<unknown>) => Promise<Resync>;
  /** Ends the judging again of one value after `resync` (see ExplorationState.settle). */
  readonly settle?: () => void;
  /** Sends the requests the judge of `value` will make (into the caches it reads), all at once. */
  readonly prefetch?: (value: T) => Promise<unknown>;
  /** Values judged before the generated ones, whatever --examples; `judged(i)` is told of each answer judged. */
  readonly covering?: { readonly values: readonly T[]; readonly first?: number; readonly judged?: (index: number) => void };
}

/** One exploration under way: what it judges with, and what it counted so far. */
interface Exploration<T> {
  readonly context: OperationContext;
  readonly judge: (value: T) => Promise<Judgement>;
  readonly options: ExploreOptions<T>;
  judged: number;
  unknown: number;
  /** Once a failure was judged again on a listing that had not changed, the data is taken to be still: no more re-reads. */
  still: boolean;
  /** Failures judged while the listing moved: how many, and the first SET_ASIDE of them. */
  setAsides: number;
  readonly unconfirmed: Finding[];
  readonly unusable: Exchange[];
  failure: Finding | undefined;
  /** Values sampled so far (covering and generated), to send ahead of. */
  tried: number;
  readonly sendAhead: (upTo: number) => void;
}

/** `value` judged on a fresh read of the listing: the model re-synced, what the judge sends sent with it. */
async function judgeOnFreshRead<T>(run: Exploration<T>, value: T) {
  const { options } = run;
  const resync = await options.resync!(options.prefetch && (() => options.prefetch!(value)));
  return { changed: resync.changed, read: resync.read, judgement: await run.judge(value) };
}

/**
 * A failure the versions rule did not judge (it could not tell, or the judge compares with the model of the listing as
 * read) may be the data's doing: the run reads the listing whole again and judges it once more, up to
 * {@link FRESH_READS} times. Failing while the listing read whole just before and just after is the same (its head,
 * when it cannot be read whole), it was judged against one version, which no movement explains: it stands
 * (`confirmed`), as does a failure the rule judges now. Failing on every read while the listing moved, it is set
 * aside for the versions to settle (see settled).
 */
async function judgeFresh<T>(run: Exploration<T>, value: T): Promise<{ judgement: Judgement; confirmed: boolean }> {
  const judgement = await run.judge(value);
  const { resync } = run.options;
  // A finding of the versions rule (rejudge) has been judged against every version admissible for its time already.
  const unjudged = (j: Judgement): j is Extract<Judgement, { kind: 'fail' }> =>
    j.kind === 'fail' && j.finding.absolute !== true && j.finding.rejudge === undefined;
  if (!unjudged(judgement) || !resync || run.still) return { judgement, confirmed: true };
  // Data too quick for one version: past a few, failures are set aside as they are, without re-reads.
  if (run.setAsides >= FRESH_READS) return { judgement, confirmed: false };
  let last = judgement;
  for (let n = 0; n < FRESH_READS; n += 1) {
    // A listing not read whole (past --max-pages, or torn) shows its version by its head, read before and after.
    const before = await headVersion(run.context);
    const fresh = await judgeOnFreshRead(run, value);
    if (!unjudged(fresh.judgement)) return settled(run, { judgement: fresh.judgement, confirmed: true });
    last = fresh.judgement;
    const oneVersion =
      fresh.read !== undefined ? (await resync()).read === fresh.read : before !== undefined && before === (await headVersion(run.context));
    if (oneVersion) {
      if (!fresh.changed) run.still = true;
      const { unplaced: _, ...atOneVersion } = last.finding;
      return settled(run, { judgement: { kind: 'fail', finding: atOneVersion }, confirmed: true });
    }
  }
  return settled(run, { judgement: last, confirmed: false });
}

/** `judged`, once the judging again that found it is settled (see ExplorationState.settle). */
function settled<T, J>(run: Exploration<T>, judged: J): J {
  run.options.settle?.();
  return judged;
}

/** The head's version as two reads of it sent together show it (records and count), or undefined when they differ. */
async function headVersion(context: OperationContext): Promise<string | undefined> {
  const query = headQuery(context);
  const [a, b] = (await Promise.all(context.sendTogether([{ query }, { query }]))).map((e) => headKey(context, e));
  return a !== undefined && a === b ? a : undefined;
}

/** Counts a judgement: true when the value passed or could not be judged, false when it failed (`failure`). */
function tally<T>(run: Exploration<T>, judgement: Judgement): boolean {
  if (judgement.kind === 'unusable') {
    run.unusable.push(judgement.exchange);
    return true;
  }
  if (judgement.kind === 'beyond') {
    run.unknown += 1;
    return true;
  }
  run.judged += 1;
  if (judgement.kind === 'pass') return true;
  run.failure = judgement.finding;
  return false;
}

/**
 * A failure judged while the listing moved: set aside (a few kept), with why the versions could not tell, for the run
 * to settle (see settled); the exploration goes on.
 */
function setAside<T>(run: Exploration<T>, finding: Finding, where: string): void {
  run.judged += 1;
  run.setAsides += 1;
  const unplaced = finding.unplaced ?? 'it compares an answer with the listing as read, and the listing moved while it was judged';
  if (run.unconfirmed.length < SET_ASIDE)
    run.unconfirmed.push({ ...finding, message: `${finding.message} (${where})`, seed: run.context.seed, unplaced });
}

/** The covering values, each judged; the first failure that stands, as it is (already among the plainest requests of its pair). */
async function judgeCovering<T>(run: Exploration<T>, covering: readonly T[]): Promise<Finding | undefined> {
  // Named by its place in the whole set: an extension of a trimmed plan judges from the middle of it.
  const first = run.options.covering?.first ?? 0;
  const place = (i: number) => `covering request ${first + i + 1} of ${first + covering.length}`;
  for (const [i, value] of covering.entries()) {
    run.tried += 1;
    run.sendAhead(run.tried + 2 * run.context.concurrency);
    const { judgement, confirmed } = await judgeFresh(run, value);
    if (judgement.kind === 'pass' || judgement.kind === 'fail') run.options.covering?.judged?.(i);
    if (judgement.kind === 'fail' && !confirmed) {
      setAside(run, judgement.finding, place(i));
      continue;
    }
    if (!tally(run, judgement))
      return {
        ...run.failure!,
        message: `${run.failure!.message} (${place(i)})`,
        seed: run.context.seed,
      };
  }
  return undefined;
}

/** The generated values judged as a fast-check property, a failure shrunk to a minimal request. */
function checkGenerated<T>(run: Exploration<T>, generated: fc.Arbitrary<T>) {
  const { context } = run;
  const property = fc.asyncProperty(generated, async (value) => {
    // Not once a failure was seen: what follows are shrinking's candidates, not the values sampled.
    const shrinking = run.failure !== undefined;
    if (!shrinking) {
      run.tried += 1;
      run.sendAhead(run.tried + 2 * context.concurrency);
    }
    const { judgement, confirmed } = await judgeFresh(run, value);
    // A candidate's failure judged while the listing moved may be the data's doing: shrinking must not trade the
    // failure found for it.
    if (judgement.kind === 'fail' && !confirmed) {
      if (!shrinking) setAside(run, judgement.finding, `request ${run.tried} of ${context.examples}`);
      return true;
    }
    // The last failure seen is the shrunk counterexample's: shrinking stops on the last candidate that failed.
    return tally(run, judgement);
  });
  return fc.check(property, { seed: context.seed, numRuns: context.examples });
}

/** What the exploration found: the shrunk failure, those set aside, or why it judged nothing; the unjudged as not observed. */
function verdictOf<T>(run: Exploration<T>, details: fc.RunDetails<[T]>, sampled: number): Finding[] | Skip | Partly {
  const { context } = run;
  if (details.failed && run.failure) {
    const shrunk = details.numShrinks > 0 ? `, shrunk in ${details.numShrinks} step${details.numShrinks === 1 ? '' : 's'}` : '';
    return [
      {
        ...run.failure,
        message: `${run.failure.message} (request ${details.numRuns} of ${context.examples}${shrunk})`,
        seed: context.seed,
      },
    ];
  }
  if (details.failed && details.errorInstance) throw details.errorInstance;
  if (run.judged === 0 && run.unconfirmed.length === 0) {
    if (run.unknown > 0 && run.options.beyond) return run.options.beyond();
    return noEvidence(`none of ${sampled} generated requests got an answer to judge: ${describeAnswers(run.unusable)}`);
  }
  // The requests judged are all a pass covers: those left unjudged are told apart.
  return partly(run.unconfirmed, [
    ...(run.unusable.length > 0
      ? [`${run.unusable.length} of ${sampled} generated requests got no answer to judge: ${describeAnswers(run.unusable)}`]
      : []),
    ...(run.unknown > 0 ? [`${run.unknown} of ${sampled} generated requests needed records beyond the pages read (--max-pages)`] : []),
  ]);
}

/**
 * With room for requests in flight, what the next requests need is sent ahead, two concurrencies' worth (a run
 * that fails early wastes little): the same seed gives fc.sample the values fc.check then judges, in order.
 */
function sender<T>(context: OperationContext, options: ExploreOptions<T>, generated: fc.Arbitrary<T>): (upTo: number) => void {
  const covering = options.covering?.values ?? [];
  const ahead =
    context.concurrency > 1 && options.prefetch
      ? [...covering, ...fc.sample(generated, { seed: context.seed, numRuns: context.examples })]
      : [];
  let next = 0;
  return (upTo) => {
    for (; next < Math.min(upTo, ahead.length); next += 1) options.prefetch!(ahead[next]!).catch(() => undefined);
  };
}

/**
 * Judges the covering values (the first failure reported as it is), then `context.examples` requests generated
 * from `arbitrary` with the run's seed; the first failure is shrunk to a minimal request and reported with the
 * seed that replays it. No evidence when nothing could be judged; `beyond()` when every request needed records
 * past --max-pages.
 *
 * @example
 * return explore(context, requestArbitrary(model, context.parameters), (request) => judgeRequest(request), { resync });
 */
export async function explore<T>(
  context: OperationContext,
  arbitrary: fc.Arbitrary<T>,
  judge: (value: T) => Promise<Judgement>,
  options: ExploreOptions<T> = {},
): Promise<Finding[] | Skip | Partly> {
  const generated = fc.limitShrink(arbitrary, MAX_SHRINKS);
  const run: Exploration<T> = {
    context,
    judge,
    options,
    judged: 0,
    unknown: 0,
    still: false,
    setAsides: 0,
    unconfirmed: [],
    unusable: [],
    failure: undefined,
    tried: 0,
    sendAhead: sender(context, options, generated),
  };
  const covering = options.covering?.values ?? [];
  const found = await judgeCovering(run, covering);
  if (found) return [found];
  const details = await checkGenerated(run, generated);
  return verdictOf(run, details, covering.length + context.examples);
}

/**
 * The exploration of the model (explore_search, explore_metadata): the listing needed whole, then {@link explore}
 * with `judge`; `beyond` words the skip when every request needed more; `first` may skip before it starts.
 *
 * @example
 * run: (context) => exploreModel(context, 'every generated request needed records beyond those read', judgeSearch),
 */
export async function exploreModel(
  context: OperationContext,
  beyond: string,
  judge: (context: OperationContext, state: ExplorationState, listing: Listing, generated: GeneratedRequest) => Promise<Judgement>,
  first?: (state: ExplorationState) => Promise<Skip | undefined>,
): Promise<Finding[] | Skip | Partly> {
  const listing = await context.listing();
  const missing = needListing(listing, 1, true);
  if (missing) return missing;
  const state = await explorationOf(context);
  const skip = await first?.(state);
  if (skip) return skip;
  const arbitrary = requestArbitrary(state.model, context.parameters, state.wrong.length);
  return explore(context, arbitrary, (generated) => judge(context, state, listing, generated), {
    beyond: () => tooLong(listing, beyond),
    resync: state.resync,
    settle: state.settle,
    prefetch: state.sendAhead,
    covering: state.covering,
  });
}

/**
 * A generated request resolved and sent (once, through the exploration's memo), with its answer; or a pass when it
 * carries wrong credentials (explore_pages' to judge), unusable when its answer is no evidence.
 *
 * @example
 * const answer = await answerTo(state, generated);
 * if ('kind' in answer) return answer;
 */
export async function answerTo(
  state: ExplorationState,
  generated: GeneratedRequest,
): Promise<{ readonly request: ResolvedRequest; readonly exchange: Exchange } | Judgement> {
  if (generated.credentials !== undefined) return { kind: 'pass' };
  const request = state.resolve(generated);
  const exchange = await state.send(request.query);
  return usable(exchange) ?? { request, exchange };
}

/** The answer is evidence (not a 5xx, a redirect or a transport error), or the judgement that it is not. */
export const usable = (exchange: Exchange): Judgement | undefined => (answered(exchange) ? undefined : { kind: 'unusable', exchange });
