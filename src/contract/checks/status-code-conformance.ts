import type { ResponseCheck } from '../model/check.ts';
import { documentedResponse, severityForStatus } from '../material/documented-response.ts';

/**
 * Every status is documented for the operation. prism-http only warns about an undocumented one; here it
 * is a failure: an error for 1xx-3xx (a redirect included), a warning for 4xx, whose codes are assumed.
 */
export const statusCodeConformance: ResponseCheck = {
  name: 'status_code_conformance',
  kind: 'response',
  description: 'every status is documented for the operation',
  evidence: 'any response',
  inspect(exchange, { operation }) {
    const status = exchange.response?.status;
    if (status === undefined || status >= 500 || documentedResponse(operation, status)) return [];
    const documented = operation.responses.map((r) => r.status).join(', ');
    const location = exchange.response?.headers.location;
    return [
      {
        severity: severityForStatus(status),
        message: `status ${status} is not documented for ${operation.operationId}`,
        expected: `one of ${documented}`,
        actual: location ? `${status} (redirect to ${location}, not followed)` : String(status),
        exchange,
      },
    ];
  },
};
