import type { SchemaObject } from 'openapi3-ts/oas31';
import { resolveRef } from '../../spec/resolve-ref.ts';
import type { Finding, OperationContext, ResponseCheck } from '../check.ts';
import { preview } from '../check.ts';
import type { Exchange } from '../types.ts';
import { documentedResponse } from './documented-response.ts';
import { needsResponse } from './needs.ts';

/**
 * Every response body matches its documented schema, checked by prism-http's validator: every record of
 * every page read, and error bodies too. Each finding names the JSON path of the offending value.
 */
export const responseSchemaConformance: ResponseCheck = {
  name: 'response_schema_conformance',
  kind: 'response',
  description: 'every body (records and error bodies) matches its documented schema',
  evidence: 'a 200 response',
  needs: needsResponse(200),
  inspect(exchange, context) {
    const response = exchange.response;
    if (!response || exchange.request.method === 'HEAD') return [];
    const documented = documentedResponse(context.operation, response.status);
    const mediaType = documented?.contentTypes[0];
    if (!documented || !mediaType) return [];
    if (response.json === undefined) {
      return [
        {
          severity: response.status >= 400 ? 'warning' : 'error',
          message: `${response.status} body is not JSON`,
          expected: `a ${mediaType} body`,
          actual: preview(response.text || '(empty)', 100),
          exchange,
        },
      ];
    }
    // The documented media type stands in for the real one, which content_type_conformance judges.
    const diagnostics = context.prism.validateResponse(context.operation.operationId, {
      status: response.status,
      headers: { 'content-type': mediaType },
      body: response.json,
    });
    return diagnostics.filter((d) => d.path[0] === 'body').map((d) => toFinding(d.path.slice(1), d.message, d.keyword, exchange, context));
  },
};

function toFinding(
  path: readonly string[],
  prismMessage: string,
  keyword: string | undefined,
  exchange: Exchange,
  context: OperationContext,
): Finding {
  const value = path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], exchange.response?.json);
  const where = `$${path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('')}`;
  const detail = prismMessage.replace(/^Response body (property \S+ )?/, '');
  return {
    severity: severityOf(path, value, keyword, exchange, context),
    message: `${where} ${detail}`,
    expected: detail.replace(/^must (be )?/, ''),
    actual: value === undefined ? '(absent)' : preview(JSON.stringify(value), 80),
    exchange,
  };
}

/**
 * An error where the interface states the fact; a warning where only our spec assumes it: error bodies,
 * null in place of an omitted value, and constraints other than type and format (which the interface
 * states) on fields marked x-assumed, such as the 0..100 scale of battery_level.
 */
function severityOf(
  path: readonly string[],
  value: unknown,
  keyword: string | undefined,
  exchange: Exchange,
  context: OperationContext,
): Finding['severity'] {
  if ((exchange.response?.status ?? 0) >= 400 || value === null) return 'warning';
  if (keyword === 'type' || keyword === 'format') return 'error';
  const field = path[1];
  if (!/^\d+$/.test(path[0] ?? '') || field === undefined) return 'error';
  const schema = context.document.components?.schemas?.[context.operation.itemSchema];
  const property = schema && resolveRef<SchemaObject>(context.document, schema).properties?.[field];
  return property && 'x-assumed' in property ? 'warning' : 'error';
}
