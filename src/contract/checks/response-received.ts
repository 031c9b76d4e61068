import type { ResponseCheck } from '../model/check.ts';

/** Every request gets a complete response within the timeout and under the body cap. */
export const responseReceived: ResponseCheck = {
  name: 'response_received',
  kind: 'response',
  description: 'every request gets a complete response in time (no refused connection, timeout or oversized body)',
  evidence: 'any request sent',
  inspect(exchange) {
    if (!exchange.error) return [];
    return [
      {
        severity: 'error',
        message: `no usable response: ${exchange.error}`,
        expected: 'a complete response',
        actual: exchange.error,
        exchange,
      },
    ];
  },
};
