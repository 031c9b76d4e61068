// What a check is: a response check judging every answer, or a scenario check sending its own requests.
import type { Exchange, Finding } from '../types.ts';
import type { Partly, Skip } from './skip.ts';
import type { OperationContext } from './context.ts';
import { needListing, type Listing } from './listing.ts';

interface CheckBase {
  /** Stable name, used by --checks and in every report. */
  readonly name: string;
  /** One line: what conforming means. */
  readonly description: string;
  /** What the check needs from the target to give a verdict, in words (shown when it is skipped). */
  readonly evidence: string;
  /** The option that turns an opt-in check on; without it the check is not requested by default. */
  readonly optIn?: string;
  /** When the check does not apply to this run, why (it is then reported as skipped). */
  skip?(context: OperationContext): Skip | undefined;
  /** Each finding judges one answer on its own, never against another: data that changes cannot explain it. */
  readonly judgesEachAnswer?: boolean;
}

/** A part of a response check's claim, seen only on the answers `found` picks (see ResponseCheck.parts). */
export interface ClaimPart {
  readonly claim: string;
  found(exchange: Exchange): boolean;
  readonly missing: string;
}

/** A check applied to every response the kit receives for an operation. */
export interface ResponseCheck extends CheckBase {
  readonly kind: 'response';
  /**
   * What the check needs among the answers (e.g. one record in a 200 array): `found` tells it of one answer;
   * when no answer has it, the check is skipped for want of evidence, `missing` saying what was not seen.
   */
  readonly needs?: { found(exchange: Exchange): boolean; readonly missing: string };
  /**
   * Parts of its claim that only some answers show (the records' schema needs a record): `found` tells it of one
   * answer showing the part; a part no answer showed is reported as not observable here, `claim: missing`.
   *
   * @example
   * parts: () => [{ claim: "the records' schema", found: (e) => (recordsOf(e)?.length ?? 0) > 0, missing: 'no record' }]
   */
  parts?(context: OperationContext): readonly ClaimPart[];
  /** It sees every answer, those to requests off the interface (Exchange.judgedAlone) too. */
  readonly everyAnswer?: boolean;
  inspect(exchange: Exchange, context: OperationContext): Finding[];
}

/** A check that sends its own requests to probe one behaviour. */
export interface ScenarioCheck extends CheckBase {
  readonly kind: 'scenario';
  /**
   * Checks of one group share what they send through one context (the explorations' model and answers), so
   * they run one after another on it, even when other checks run side by side.
   */
  readonly group?: string;
  /**
   * Its requests are many and mostly sent ahead (the explorations): queued, they go after other checks', which
   * wait on each answer in turn, so those are not held up behind them.
   */
  readonly background?: boolean;
  /**
   * The part of the plan its requests grow with: a trimmed plan judges more of it in the time left, this check
   * running again on the next of them (see run/extend-plan.ts).
   */
  readonly grows?: 'covering' | 'specialTerms';
  run(context: OperationContext): Promise<Finding[] | Skip | Partly>;
}

/** Either kind of check. */
export type Check = ResponseCheck | ScenarioCheck;

/** What every outcome of `check` on an operation starts with. */
export const outcomeBase = (check: Check, operationId: string) => ({
  check: check.name,
  operationId,
  description: check.description,
  evidence: check.evidence,
});

/**
 * A scenario check's run that needs the listing read with at least `min` records (see {@link needListing}):
 * skipped without them, else `run` on it.
 *
 * @example
 * run: withListing(1, async (context, listing) => judge(context, listing)),
 */
export const withListing =
  (min: number, run: (context: OperationContext, listing: Listing) => ReturnType<ScenarioCheck['run']>) =>
  async (context: OperationContext): ReturnType<ScenarioCheck['run']> => {
    const listing = await context.listing();
    return needListing(listing, min) ?? run(context, listing);
  };
