import type { ResponseCheck } from '../model/check.ts';
import type { Exchange } from '../types.ts';
import { documentedResponse } from '../material/documented-response.ts';
import { needsResponse } from '../material/needs.ts';

/** Documented response headers (X-Total-Count, Link), when present, match their schemas. Headers are assumed: warnings. */
export const responseHeadersConformance: ResponseCheck = {
  name: 'response_headers_conformance',
  kind: 'response',
  description: 'documented response headers, when present, match their schemas',
  evidence: 'a 200 response',
  needs: needsResponse(200),
  // The paging headers are optional: one never sent has no schema to meet here.
  parts: ({ operation }) =>
    [operation.paging.count, operation.paging.links].flatMap((name) =>
      name === undefined
        ? []
        : [
            {
              claim: `${name}'s schema`,
              found: (e: Exchange) => e.response?.status === 200 && e.response.headers[name] !== undefined,
              missing: 'no 200 answer sent it',
            },
          ],
    ),
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
