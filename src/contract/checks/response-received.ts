import type { ResponseCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { ALONE_IN_FLIGHT } from '../client/concurrency-limit.ts';
import { stillBusyFindings } from '../model/answers.ts';
import { duration } from '../../shared/duration.ts';

/**
 * Every request gets a complete response within the timeout and under the body cap. One that timed out or lost
 * its connection with others in flight is judged by what it did sent again alone: failing alone too is an error;
 * answering alone is a warning when it failed with at most 2 in flight, else only a figure of the run's timing;
 * past the run's re-sends, one not sent again is a warning at most 2 in flight, else a count in the timing.
 */
export const responseReceived: ResponseCheck = {
  name: 'response_received',
  kind: 'response',
  description: 'every request gets a complete response in time (no refused connection, timeout or oversized body)',
  evidence: 'any request sent',
  inspect(exchange) {
    const first = exchange.firstUnderLoad;
    // Past the run's re-sends, one that failed under heavier load is a count in the timing section.
    if (exchange.notSentAlone && (exchange.inFlight ?? 1) > ALONE_IN_FLIGHT) return [];
    // A first sending answered with a 5xx, and its sending alone that got no response: the first's status says more.
    const underLoad = first?.error
      ? `; first with ${first.inFlight} in flight: ${first.error}`
      : first
        ? `; first with ${first.inFlight} in flight: ${first.response?.status}`
        : '';
    if (exchange.error && first && exchange.stillBusy) return stillBusy(exchange, first);
    if (exchange.error) {
      const notAlone = exchange.notSentAlone
        ? `, with ${exchange.inFlight} in flight (not sent again alone: the run's re-sends were spent, or it went on a connection of its own)`
        : '';
      return [
        {
          severity: exchange.notSentAlone ? 'warning' : 'error',
          message: `no usable response${first ? ' alone either' : ''}: ${exchange.error}${notAlone}`,
          expected: 'a complete response',
          actual: `${exchange.error}${underLoad}`,
          exchange,
        },
      ];
    }
    // A first sending answered with a 5xx is not_a_server_error's to judge.
    if (first?.error && (first.inFlight ?? 1) <= ALONE_IN_FLIGHT) return [aloneAnswered(exchange, first)];
    return [];
  },
};

/** A request with no response alone while the target was still busy, graded as stillBusyFindings says. */
function stillBusy(exchange: Exchange, first: Exchange): Finding[] {
  return stillBusyFindings(exchange, first, {
    message: `${first.error ?? `${first.response?.status}`} with ${first.inFlight} in flight; sent again alone, it failed too, but with the target still busy (no probe answered at its unloaded speed within --timeout)`,
    expected: `a complete response with ${first.inFlight} in flight`,
    actual: `${first.error ?? first.response?.status}; alone, the target still busy: ${exchange.error}`,
  });
}

/** A request that failed with few in flight and answered alone: the target is slow at that load, not broken. */
function aloneAnswered(exchange: Exchange, first: Exchange): Finding {
  const took = exchange.response?.durationMs;
  return {
    severity: 'warning',
    message: `${first.error} with ${first.inFlight} in flight; alone it answered${took === undefined ? '' : ` in ${duration(took)}`}`,
    expected: `a complete response with ${first.inFlight} in flight`,
    actual: `${first.error}; alone: ${exchange.response?.status ?? ''}${took === undefined ? '' : ` in ${duration(took)}`}`,
    exchange,
  };
}
