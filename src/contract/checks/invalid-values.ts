import fc from 'fast-check';
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

/**
 * Further invalid values drawn from the seed, off the fixed points above: anywhere above the maximum,
 * anywhere below the minimum, fractions and words, so a server that only checks the exact edges is caught.
 */
export function generatedInvalidIntegers(schema: SchemaObject, seed: number, count: number): string[] {
  if (schema.type !== 'integer') return [];
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const kinds: fc.Arbitrary<string>[] = [
    fc
      .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 99 }))
      .map(([n, f]) => `${n}.${String(f).padStart(2, '0')}`),
    fc.constantFrom('one', 'NaN', 'Infinity', 'null', 'true', '[]', '1,2'),
  ];
  if (min !== undefined) kinds.push(fc.integer({ min: -2_147_483_648, max: min - 1 }).map(String));
  if (max !== undefined) kinds.push(fc.integer({ min: max + 1, max: 2_147_483_647 }).map(String));
  return [...new Set(fc.sample(fc.oneof(...kinds), { seed, numRuns: count }))];
}
