import type { ResponseCheck } from '../model/check.ts';
import { documentedResponse } from '../material/documented-response.ts';
import { needsResponse } from '../material/needs.ts';

/** Documented response headers (X-Total-Count, Link), when present, match their schemas. Headers are assumed: warnings. */
export const responseHeadersConformance: ResponseCheck = {
  name: 'response_headers_conformance',
  kind: 'response',
  description: 'documented response headers, when present, match their schemas',
  evidence: 'a 200 response',
  needs: needsResponse(200),
  inspect(exchange, context) {
    const response = exchange.response;
    if (!response || !documentedResponse(context.operation, response.status)) return [];
    const diagnostics = context.prism.validateResponse(context.operation.operationId, {
      status: response.status,
      headers: response.headers,
      body: response.json,
    });
    return diagnostics
      .filter((d) => d.path[0] === 'header')
      .map((d) => ({
        severity: 'warning' as const,
        message: d.message,
        expected: d.message.replace(/^.* must /, ''),
        actual: response.headers[String(d.path[1]).toLowerCase()] ?? '(absent)',
        exchange,
      }));
  },
};
