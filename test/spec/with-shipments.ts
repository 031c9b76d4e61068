// A copy of the kit's spec with a third listing, /shipment, whose schema no domain builder knows and which has
// no x-collection: what a team adding a listing writes. Shared by the tests that show the spec is the only
// extension point.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { stringify } from 'yaml';
import type { LoadedSpec } from '../../src/spec/load-spec.ts';
import { spec } from '../helpers.ts';

/** The kit's spec and /shipment (listShipments, records of the Shipment schema). */
export function withShipments(): LoadedSpec {
  const document = structuredClone(spec.document) as OpenAPIObject & { paths: Record<string, unknown> };
  document.components!.schemas!.Shipment = {
    type: 'object',
    required: ['id', 'created_at', 'reference'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      created_at: { type: 'string', format: 'date-time' },
      reference: { type: 'string', pattern: '^SHP-[0-9]{6}$' },
      status: { type: 'string', enum: ['planned', 'in_transit', 'delivered'] },
      weight_kg: { type: 'number', minimum: 0, maximum: 30_000 },
      pallets: { type: 'integer', minimum: 1, maximum: 33 },
      hazardous: { type: 'boolean' },
      tags: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 12 } },
      origin: {
        type: 'object',
        required: ['country'],
        properties: { city: { type: 'string' }, country: { type: 'string', pattern: '^[A-Z]{2}$' } },
        additionalProperties: false,
      },
      carrier: { oneOf: [{ type: 'string', format: 'email' }, { type: 'null' }] },
    },
    additionalProperties: false,
  };
  const alert = structuredClone(document.paths['/alert']) as { get: Record<string, unknown> };
  const get = alert.get as {
    operationId: string;
    tags: string[];
    summary: string;
    'x-collection'?: unknown;
    responses: Record<string, { content?: Record<string, { schema: unknown; examples?: unknown }> }>;
  };
  get.operationId = 'listShipments';
  get.tags = ['alerts'];
  get.summary = 'List shipments';
  delete get['x-collection'];
  const ok = get.responses['200']!.content!['application/json']!;
  ok.schema = { type: 'array', items: { $ref: '#/components/schemas/Shipment' } };
  delete ok.examples;
  document.paths['/shipment'] = alert;
  return { document, source: stringify(document), path: 'shipments.yaml' };
}
