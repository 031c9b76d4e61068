import type { SchemaObject } from 'openapi3-ts/oas31';
import { resolveRef } from '../../spec/resolve-ref.ts';
import type { ResponseCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import type { OperationContext } from '../model/context.ts';
import { preview } from '../model/answers.ts';
import type { SchemaIssue } from '../../spec/schema-validator.ts';
import { documentedResponse } from '../material/documented-response.ts';
import { needsRecord, needsResponse } from '../material/needs.ts';

/**
 * Every response body matches its documented schema, checked by the spec's one schema validator (Ajv,
 * against the target view): every record of every page read, and error bodies too. Each finding names
 * the JSON path of the offending value and carries Ajv's message as it is.
 */
export const responseSchemaConformance: ResponseCheck = {
  name: 'response_schema_conformance',
  kind: 'response',
  description: 'every body (records and error bodies) matches its documented schema',
  evidence: 'a 200 response',
  needs: needsResponse(200),
  // A 200 holding only [] shows the array, not the records' schema.
  parts: () => [{ claim: "the records' schema", ...needsRecord }],
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
    // Judged against the schema the spec documents for this status (and its first media type, which
    // stands in for the real one: content_type_conformance judges that), with Ajv's own messages.
    const pointer = documented.schemaAt[mediaType];
    if (!pointer) return [];
    return context.schemas.validateAt(pointer, response.json).map((issue) => toFinding(issue, exchange, context));
  },
};

function toFinding(issue: SchemaIssue, exchange: Exchange, context: OperationContext): Finding {
  const value = issue.at.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], exchange.response?.json);
  return {
    severity: severityOf(issue.at, value, issue.keyword, exchange, context),
    message: `${issue.path} ${issue.message}`,
    expected: issue.message,
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
  keyword: string,
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
