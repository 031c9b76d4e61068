import { describe, expect, it } from 'vitest';
import { validator } from '../helpers.ts';

describe('createSchemaValidator', () => {
  it('accepts a record with no fields, since none is required', () => {
    expect(validator.validate('Alert', {})).toEqual([]);
    expect(validator.validate('Sensor', {})).toEqual([]);
  });

  it('reports each offending value with its JSON path', () => {
    const issues = validator.validate('Alert', { id: 'nope', sites_id: ['a', 7], min_temp: null }, '$[4]');
    expect(issues).toEqual([
      { path: '$[4].id', message: 'must match format "uuid"' },
      { path: '$[4].min_temp', message: 'must be number' },
      { path: '$[4].sites_id[1]', message: 'must be string' },
    ]);
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
    expect(validator.check(schema, 0)).toEqual([{ path: '$', message: 'must be >= 1' }]);
    expect(validator.check(schema, 3)).toEqual([]);
  });

  it('refuses an unknown schema name', () => {
    expect(validator.has('Alert')).toBe(true);
    expect(() => validator.validate('Nope', {})).toThrow(/no component schema named Nope/);
  });
});
