// Issue 49, item 1: a 5xx with others in flight is judged by what the request did sent again alone.
import { describe, expect, it } from 'vitest';
import { notAServerError } from '../../../src/contract/checks/not-a-server-error.ts';
import { responseReceived } from '../../../src/contract/checks/response-received.ts';
import type { Exchange } from '../../../src/contract/types.ts';

const request = { method: 'GET', url: 'http://t/alert?search=x', headers: {} };
const answer = (status: number, durationMs: number, inFlight: number, more: Partial<Exchange> = {}): Exchange => ({
  operationId: 'listAlerts',
  request,
  response: { status, headers: {}, text: status >= 500 ? '{"title":"Service Unavailable"}' : '[]', durationMs },
  inFlight,
  ...more,
});
const judge = (exchange: Exchange) =>
  [notAServerError, responseReceived].flatMap((check) =>
    check.inspect(exchange, {} as never).map((f) => `${check.name} ${f.severity}: ${f.message} | ${f.actual}`),
  );

describe('a 5xx under load', () => {
  it('answered alone: a 502/503/504 with more than 2 in flight is a figure of the timing, a 500 a warning with both figures', () => {
    expect(judge(answer(200, 40, 6, { firstUnderLoad: answer(503, 2, 6) }))).toEqual([]);
    expect(judge(answer(200, 5300, 8, { firstUnderLoad: answer(500, 10_000, 8) }))).toEqual([
      'not_a_server_error warning: server error 500 with others in flight; alone it answered 200 | 500 in 10.0 s with 8 in flight; alone: 200 in 5.3 s',
    ]);
    expect(judge(answer(200, 40, 2, { firstUnderLoad: answer(503, 2, 2) }))).toEqual([
      'not_a_server_error warning: server error 503 with others in flight; alone it answered 200 | 503 in 2 ms with 2 in flight; alone: 200 in 40 ms',
    ]);
  });

  it('a 5xx alone too, or with nothing else in flight: an error', () => {
    expect(judge(answer(503, 2, 6, { firstUnderLoad: answer(503, 2, 6) }))).toEqual([
      'not_a_server_error error: server error 503 alone too | 503 {"title":"Service Unavailable"}; first 503 with 6 in flight',
    ]);
    expect(judge(answer(503, 2, 1))).toEqual(['not_a_server_error error: server error 503 | 503 {"title":"Service Unavailable"}']);
  });

  it("past the run's re-sends: a 502/503/504 with more than 2 in flight a count, else (and a 500) a warning", () => {
    expect(judge(answer(503, 2, 6, { notSentAlone: true }))).toEqual([]);
    expect(judge(answer(500, 2, 6, { notSentAlone: true }))).toEqual([
      `not_a_server_error warning: server error 500 with others in flight (not sent again alone: the run's re-sends were spent, or it went on a connection of its own) | 500 with 6 in flight {"title":"Service Unavailable"}`,
    ]);
  });
});
