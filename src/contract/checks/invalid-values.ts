import type { SchemaObject } from 'openapi3-ts/oas31';

/**
 * Values that break an integer parameter's schema: below its minimum, negative, fractional, not a number,
 * above its maximum. Derived from the spec, so new limits bring new probes.
 */
export function invalidIntegerValues(schema: SchemaObject): string[] {
  if (schema.type !== 'integer') return [];
  const values = new Set<string>();
  if (typeof schema.minimum === 'number') {
    values.add(String(schema.minimum - 1));
    for (const negative of [-1, -3]) if (negative < schema.minimum) values.add(String(negative));
  }
  if (typeof schema.maximum === 'number') values.add(String(schema.maximum + 1));
  values.add(`${typeof schema.minimum === 'number' ? schema.minimum : 1}.5`);
  values.add('abc');
  return [...values];
}

/** Values a conforming server must accept: the minimum and the maximum of an integer parameter. */
export function boundaryIntegerValues(schema: SchemaObject): string[] {
  if (schema.type !== 'integer') return [];
  return [schema.minimum, schema.maximum].filter((v): v is number => typeof v === 'number').map(String);
}
