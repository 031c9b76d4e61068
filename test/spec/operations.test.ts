import { describe, expect, it } from 'vitest';
import { listOperations } from '../../src/spec/operations.ts';
import { spec } from '../helpers.ts';

describe('listOperations', () => {
  const operations = listOperations(spec.document);

  it('lists both listings with their item schemas and key header', () => {
    expect(operations.map((op) => [op.operationId, op.method, op.path, op.itemSchema, op.apiKeyHeader])).toEqual([
      ['listAlerts', 'get', '/alert', 'Alert', 'x-api-key'],
      ['listSensors', 'get', '/sensor', 'Sensor', 'x-api-key'],
    ]);
  });

  it('resolves the shared query parameters with their limits and defaults', () => {
    const page = operations[0]!.queryParameters.find((p) => p.name === 'pageSize');
    expect(page?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(operations[1]!.queryParameters.map((p) => p.name)).toEqual(['search', 'page', 'pageSize']);
    expect(operations[0]!.queryParameters.every((p) => !p.required && p.assumed)).toBe(true);
  });

  it('lists documented responses with their media types', () => {
    expect(operations[0]!.responses).toEqual([
      { status: '200', contentTypes: ['application/json'] },
      { status: '304', contentTypes: [] },
      { status: '400', contentTypes: ['application/problem+json'] },
      { status: '401', contentTypes: ['application/problem+json'] },
      { status: '403', contentTypes: ['application/problem+json'] },
      { status: '404', contentTypes: ['application/problem+json'] },
      { status: '429', contentTypes: ['application/problem+json'] },
      { status: '500', contentTypes: ['application/problem+json'] },
      { status: '503', contentTypes: ['application/problem+json'] },
    ]);
  });

  it('refuses an operation whose 200 is not an array of a component schema', () => {
    const document = structuredClone(spec.document);
    const ok = document.paths!['/alert']!.get!.responses!['200'];
    ok.content['application/json'].schema = { type: 'object' };
    expect(() => listOperations(document)).toThrow(/listAlerts: 200 application\/json must be an array/);
  });
});
