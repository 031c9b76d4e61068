import type { ResponseCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { preview, stillBusyFindings } from '../model/answers.ts';
import { ALONE_IN_FLIGHT } from '../client/concurrency-limit.ts';
import { SHED_STATUSES } from '../client/send-alone.ts';
import { duration } from '../../shared/duration.ts';

const took = (exchange: Exchange) => (exchange.response?.durationMs === undefined ? '' : ` in ${duration(exchange.response.durationMs)}`);

/**
 * No request the kit sends, however odd, gets a 5xx. One that got a 500, 502, 503 or 504 with others in flight is
 * judged by what it did sent again alone (the kit's load may have caused it): a 5xx alone too is an error; answering
 * alone, a 500 is a warning with both figures, a 502/503/504 (load shed) a figure of the timing section (a warning
 * with at most 2 in flight). Past the run's re-sends, a 502/503/504 not sent again is a count in the timing section
 * (a warning at most 2 in flight), a 500 a warning.
 */
export const notAServerError: ResponseCheck = {
  name: 'not_a_server_error',
  kind: 'response',
  description: 'no request gets a 5xx status (one under load: none sent again alone)',
  evidence: 'any response',
  inspect(exchange) {
    const status = exchange.response?.status ?? 0;
    const first = exchange.firstUnderLoad;
    const firstStatus = first?.response?.status ?? 0;
    if (status >= 500 && exchange.notSentAlone) return notSentAgain(exchange, status);
    if (status >= 500 && first && exchange.stillBusy) return busyAlone(exchange, first, status);
    if (status >= 500)
      return [
        {
          severity: 'error',
          message: `server error ${status}${firstStatus >= 500 ? ' alone too' : ''}`,
          expected: 'a status below 500',
          actual: `${status} ${preview(exchange.response?.text ?? '', 100)}${firstStatus >= 500 ? `; first ${firstStatus} with ${first!.inFlight} in flight` : ''}`,
          exchange,
        },
      ];
    // Answered alone: the load brought it.
    if (first && firstStatus >= 500 && (firstStatus === 500 || (first.inFlight ?? 1) <= ALONE_IN_FLIGHT))
      return [
        {
          severity: 'warning',
          message: `server error ${firstStatus} with others in flight; alone it answered ${status}`,
          expected: `a status below 500 with ${first.inFlight} in flight`,
          actual: `${firstStatus}${took(first)} with ${first.inFlight} in flight; alone: ${status}${took(exchange)}`,
          exchange,
        },
      ];
    return [];
  },
};

/**
 * A 5xx alone too, but sent while the target was still busy, graded as stillBusyFindings says: one other than a
 * 502/503/504 may be the request's own (load shed is not), and the warning gives both answers.
 */
function busyAlone(exchange: Exchange, first: Exchange, status: number): Finding[] {
  const firstAnswer = first.error ?? `${first.response?.status}${took(first)}`;
  const told = {
    message: `server error ${status} alone, but with the target still busy (no probe answered at its unloaded speed within --timeout); first ${firstAnswer} with ${first.inFlight} in flight`,
    expected: 'a status below 500',
    actual: `${status}${took(exchange)} alone, the target still busy; first ${firstAnswer} with ${first.inFlight} in flight`,
  };
  return stillBusyFindings(exchange, first, told, !SHED_STATUSES.has(status));
}

/** A 5xx under load the run's re-sends did not reach: load shed with more than 2 in flight is a count of the timing. */
function notSentAgain(exchange: Exchange, status: number): Finding[] {
  if (SHED_STATUSES.has(status) && (exchange.inFlight ?? 1) > ALONE_IN_FLIGHT) return [];
  return [
    {
      severity: 'warning',
      message: `server error ${status} with others in flight (not sent again alone: the run's re-sends were spent, or it went on a connection of its own)`,
      expected: 'a status below 500',
      actual: `${status} with ${exchange.inFlight} in flight ${preview(exchange.response?.text ?? '', 100)}`,
      exchange,
    },
  ];
}
