import type { SchemaObject } from 'openapi3-ts/oas31';
import { resolveRef } from '../../spec/resolve-ref.ts';
import type { ResponseCheck } from '../model/check.ts';
import type { Finding } from '../types.ts';
import { preview } from '../model/answers.ts';
import { recordsOf } from '../records.ts';
import { needsRecord } from '../material/needs.ts';

/** Records carry only fields the spec documents. A warning (an error under --strict): clients may ignore extras. */
export const undocumentedFields: ResponseCheck = {
  name: 'undocumented_fields',
  kind: 'response',
  description: 'records carry only the fields their schema documents',
  evidence: 'a record in a 200 JSON array',
  needs: needsRecord,
  inspect(exchange, { document, operation }) {
    const records = recordsOf(exchange);
    const schema = document.components?.schemas?.[operation.itemSchema];
    if (!records || !schema) return [];
    const fields = new Set(Object.keys(resolveRef<SchemaObject>(document, schema).properties ?? {}));
    const findings: Finding[] = [];
    records.forEach((record, i) => {
      if (typeof record !== 'object' || record === null) return;
      for (const [field, value] of Object.entries(record)) {
        if (fields.has(field)) continue;
        findings.push({
          severity: 'warning',
          message: `$[${i}].${field} is not a field of ${operation.itemSchema}`,
          expected: `only ${operation.itemSchema} fields`,
          actual: `${field}: ${preview(value, 60)}`,
          exchange,
        });
      }
    });
    return findings;
  },
};
