import { describe, expect, it } from 'vitest';
import { listOperations, type ResponseSpec } from '../../src/spec/operations.ts';
import { spec, validator } from '../helpers.ts';

const operations = listOperations(spec.document);

describe('createSchemaValidator', () => {
  it('accepts a record with no fields, since none is required', () => {
    expect(validator.validate('Alert', {})).toEqual([]);
    expect(validator.validate('Sensor', {})).toEqual([]);
  });

  it('reports each offending value with its JSON path', () => {
    const issues = validator.validate('Alert', { id: 'nope', sites_id: ['a', 7], min_temp: null }, '$[4]');
    expect(issues).toEqual([
      { path: '$[4].id', message: 'must match format "uuid"', keyword: 'format', at: ['id'] },
      { path: '$[4].min_temp', message: 'must be number', keyword: 'type', at: ['min_temp'] },
      { path: '$[4].sites_id[1]', message: 'must be string', keyword: 'type', at: ['sites_id', '1'] },
    ]);
  });

  it("validates a response body at its pointer in the spec, following the response's $ref", () => {
    const [ok, badRequest] = ['200', '400'].map((status) => operations[0]!.responses.find((r) => r.status === status)!) as [
      ResponseSpec,
      ResponseSpec,
    ];
    expect(ok.schemaAt).toEqual({ 'application/json': '#/paths/~1alert/get/responses/200/content/application~1json/schema' });
    expect(badRequest.schemaAt['application/problem+json']).toBe(
      '#/components/responses/BadRequest/content/application~1problem+json/schema',
    );
    expect(validator.validateAt(ok.schemaAt['application/json']!, [{ id: 'x' }])).toEqual([
      { path: '$[0].id', message: 'must match format "uuid"', keyword: 'format', at: ['0', 'id'] },
    ]);
    expect(validator.validateAt(badRequest.schemaAt['application/problem+json']!, { status: 'x' }).map((i) => i.path)).toEqual([
      '$.status',
    ]);
    expect(validator.validateAt(ok.schemaAt['application/json']!, [])).toEqual([]);
  });

  it('checks date-time formats and integer limits', () => {
    expect(validator.validate('Sensor', { created_at: '2026-13-01', battery_level: 101 }).map((i) => i.path)).toEqual([
      '$.created_at',
      '$.battery_level',
    ]);
    expect(validator.validate('Sensor', { created_at: '2026-11-01T06:00:00.000Z', battery_level: 100 })).toEqual([]);
  });

  it('validates inline schemas such as parameter schemas', () => {
    const schema = { type: 'integer', minimum: 1 };
    expect(validator.check(schema, 0)).toEqual([{ path: '$', message: 'must be >= 1', keyword: 'minimum', at: [] }]);
    expect(validator.check(schema, 3)).toEqual([]);
  });

  it('refuses an unknown schema name', () => {
    expect(validator.has('Alert')).toBe(true);
    expect(() => validator.validate('Nope', {})).toThrow(/no component schema named Nope/);
  });
});
