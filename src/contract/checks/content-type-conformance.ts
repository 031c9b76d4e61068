import type { ResponseCheck } from '../model/check.ts';
import { needsResponse } from '../material/needs.ts';
import { documentedResponse, severityForStatus } from '../material/documented-response.ts';

/** The Content-Type of a documented response is one the spec lists for it. */
export const contentTypeConformance: ResponseCheck = {
  name: 'content_type_conformance',
  kind: 'response',
  description: 'the Content-Type is one the spec documents for the status',
  evidence: 'a 200 response',
  needs: needsResponse(200),
  inspect(exchange, { operation }) {
    const response = exchange.response;
    if (!response || exchange.request.method === 'HEAD') return [];
    const documented = documentedResponse(operation, response.status);
    if (!documented || documented.contentTypes.length === 0) return [];
    const header = response.headers['content-type'];
    const mediaType = header?.split(';')[0]?.trim().toLowerCase();
    if (mediaType && documented.contentTypes.some((t) => t.toLowerCase() === mediaType)) return [];
    return [
      {
        severity: severityForStatus(response.status),
        message: `${response.status} response has ${header ? `Content-Type ${header}` : 'no Content-Type'}`,
        expected: documented.contentTypes.join(' or '),
        actual: header ?? '(none)',
        exchange,
      },
    ];
  },
};
