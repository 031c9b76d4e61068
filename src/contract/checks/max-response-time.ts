import { notApplicable } from '../model/skip.ts';
import type { ResponseCheck } from '../model/check.ts';

/** With --max-response-time, every response arrives within the budget. Off otherwise. */
export const maxResponseTime: ResponseCheck = {
  name: 'max_response_time',
  kind: 'response',
  description: 'every response arrives within --max-response-time',
  evidence: 'any response, timed',
  optIn: '--max-response-time',
  skip: ({ maxResponseTimeMs }) => (maxResponseTimeMs === undefined ? notApplicable('opt-in: no --max-response-time given') : undefined),
  inspect(exchange, { maxResponseTimeMs }) {
    const took = exchange.response?.durationMs;
    if (maxResponseTimeMs === undefined || took === undefined || took <= maxResponseTimeMs) return [];
    return [
      { severity: 'error', message: `response took ${took} ms`, expected: `<= ${maxResponseTimeMs} ms`, actual: `${took} ms`, exchange },
    ];
  },
};
