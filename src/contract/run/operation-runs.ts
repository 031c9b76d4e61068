// One run per listing operation: its recorder (the run's order of its requests), its context and the judge
// that applies the response checks to every answer as it arrives.
import { DEADLINE_REACHED } from '../client/attempt.ts';
import { createExchangeRecorder, sentAgainAlone, type Track } from '../client/exchange-recorder.ts';
import { createResponseJudge } from '../grading/response-judge.ts';
import type { OperationContext } from '../model/context.ts';
import type { Operation } from '../../spec/operations.ts';
import type { HttpClient } from '../client/http-client.ts';
import type { Exchange } from '../types.ts';
import { contextFor, type RunScope } from './run-scope.ts';

/** What the run keeps of one listing operation. */
export interface OperationRun {
  readonly operation: Operation;
  readonly recorder: ReturnType<typeof createExchangeRecorder>;
  /** The operation's own list of requests (the listing's pages, the first probe). */
  readonly track: Track;
  readonly client: HttpClient;
  context: OperationContext;
  readonly judge: ReturnType<typeof createResponseJudge>;
}

/** Whether a request was sent (the deadline stops some before they go). */
const sent = (exchange: Exchange) => exchange.startedDateTime !== undefined;

/**
 * The runs of `operations`, in order: each answer is judged by the response checks and recorded as it
 * arrives (with the copies a replicas' re-run sent with it), then let go.
 *
 * @example
 * const runs = prepareRuns(scope, operations);
 */
export function prepareRuns(scope: RunScope, operations: readonly Operation[]): OperationRun[] {
  const responseChecks = scope.checks.filter((c) => c.kind === 'response');
  return operations.map((operation, index) => {
    const recorder = createExchangeRecorder(index, (exchange, place) => {
      // Requests the deadline stopped are the kit's doing, not the target's: no response check judges them;
      // one off the interface only those that see every answer.
      if (exchange.error !== DEADLINE_REACHED) run.judge.inspect(exchange, place);
      if (!sent(exchange)) return;
      const first = exchange.firstUnderLoad;
      if (first) scope.options.record?.(first, place);
      scope.options.record?.(exchange, first ? sentAgainAlone(place) : place);
    });
    const track = recorder.list();
    const context = contextFor(scope, operation, scope.client, track);
    const run: OperationRun = {
      operation,
      recorder,
      track,
      client: scope.client,
      context,
      judge: createResponseJudge(responseChecks, context),
    };
    return run;
  });
}
