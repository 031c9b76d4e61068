import { answerTally, describeKind } from '../model/answers.ts';
import { recordsOf } from '../records.ts';
import { noEvidence } from '../model/skip.ts';
import { outcomeBase, type ResponseCheck } from '../model/check.ts';
import type { Finding, Place, CheckOutcome, Exchange, Failure, ListingAnswers } from '../types.ts';
import type { OperationContext } from '../model/context.ts';
import { comparePlaces } from '../client/exchange-recorder.ts';

interface Folded {
  failure: Failure;
  /** Where the failure shown was first seen: its exchange's place, then the finding's index in it. */
  at: Place;
  occurrences: number;
}

/**
 * Applies the response checks to every answer of one operation as it arrives, folding repeats of one failure
 * into a count, and keeping nothing else of the answers: the failure shown is the one seen first in the run's
 * order, and failures come in that order, so the outcomes do not depend on when answers arrived.
 *
 * @example
 * const judge = createResponseJudge(checks, context);
 * judge.inspect(exchange, place); // for each answer
 * const outcomes = judge.outcomes();
 */
export function createResponseJudge(checks: readonly ResponseCheck[], context: OperationContext) {
  const tally = answerTally();
  // What the listing's requests got as a whole, by kind of answer (a redirect is one, wherever it points).
  const kinds = answerTally(describeKind);
  let listed = 0;
  // A check skipped whatever the answers (opt-in, not asked for) looks at none.
  const judged = checks.map((check) => ({
    check,
    skip: check.skip?.(context),
    found: false,
    // The parts of its claim no answer showed yet.
    unseen: [...(check.parts?.(context) ?? [])],
    folded: new Map<string, Folded>(),
  }));
  const base = (check: ResponseCheck) => outcomeBase(check, context.operation.operationId);
  return {
    inspect(exchange: Exchange, place: Place): void {
      // A request off the interface is judged by its own check's rule, and by those that see every answer.
      if (!exchange.judgedAlone) {
        tally.add(exchange);
        kinds.add(exchange);
        if (recordsOf(exchange)) listed += 1;
      }
      for (const entry of judged) {
        if (entry.skip || (exchange.judgedAlone && !entry.check.everyAnswer)) continue;
        if (entry.check.needs?.found(exchange)) entry.found = true;
        entry.unseen = entry.unseen.filter((part) => !part.found(exchange));
        entry.check.inspect(exchange, context).forEach((finding: Finding, i) => {
          const at = [...place, i];
          const key = `${finding.severity}|${finding.message.replace(/\[\d+\]/g, '[*]')}`;
          const seen = entry.folded.get(key);
          if (!seen || comparePlaces(at, seen.at) < 0)
            entry.folded.set(key, { failure: { ...finding, ...base(entry.check) }, at, occurrences: (seen?.occurrences ?? 0) + 1 });
          else seen.occurrences += 1;
        });
      }
    },
    /** What the listing's requests got, as a whole. */
    answers(): ListingAnswers {
      const { operationId, path } = context.operation;
      return { operationId, path, requests: kinds.count(), listed, answers: kinds.describe() };
    },
    outcomes(): CheckOutcome[] {
      return judged.map(({ check, skip: skipped, found, unseen, folded }) => {
        const skip = skipped ?? (check.needs && !found ? noEvidence(`${check.needs.missing}: ${tally.describe()}`) : undefined);
        if (skip) return { ...base(check), status: 'skipped', failures: [], skipReason: skip.skip, skipCause: skip.cause };
        const failures = [...folded.values()]
          .sort((a, b) => comparePlaces(a.at, b.at))
          .map(({ failure, occurrences }) => (occurrences > 1 ? { ...failure, occurrences } : failure));
        const notObserved = unseen.map((part) => `${part.claim}: ${part.missing}`);
        return { ...base(check), status: 'passed', failures, ...(notObserved.length > 0 ? { notObserved } : {}) };
      });
    },
  };
}
