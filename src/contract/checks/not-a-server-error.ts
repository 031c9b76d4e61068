import type { ResponseCheck } from '../model/check.ts';
import { preview } from '../model/answers.ts';

/** No request the kit sends, however odd, gets a 5xx. */
export const notAServerError: ResponseCheck = {
  name: 'not_a_server_error',
  kind: 'response',
  description: 'no request gets a 5xx status',
  evidence: 'any response',
  inspect(exchange) {
    const status = exchange.response?.status;
    if (status === undefined || status < 500) return [];
    return [
      {
        severity: 'error',
        message: `server error ${status}`,
        expected: 'a status below 500',
        actual: `${status} ${preview(exchange.response?.text ?? '', 100)}`,
        exchange,
      },
    ];
  },
};
