import fc from 'fast-check';
import type { SchemaObject } from 'openapi3-ts/oas31';

/**
 * Values that break an integer parameter's schema: below its minimum, negative, fractional, not a number,
 * above its maximum. Derived from the spec, so new limits bring new probes.
 */
export function invalidIntegerValues(schema: SchemaObject): string[] {
  if (schema.type !== 'integer') return [];
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const below = min === undefined ? [] : [min - 1, ...[-1, -3].filter((negative) => negative < min)];
  const above = typeof schema.maximum === 'number' ? [schema.maximum + 1] : [];
  // The last three are read by a lenient parser (parseInt, Number) as 10, 100 and 16.
  return [...new Set([...[...below, ...above].map(String), `${min ?? 1}.5`, 'abc', '10abc', '1e2', '0x10'])];
}

/** An integer's text that a server may read as the value it spells, or refuse: either conforms. */
export interface AmbiguousForm {
  /** The value sent. */
  readonly value: string;
  /** The same parameter again, with this value. */
  readonly again?: string;
  /** The values it may be read as; none: it may only be read as a page past the end (200 []). */
  readonly readAs: readonly string[];
}

/**
 * Forms of an integer that a server may read as the value they spell, or refuse with a 4xx: leading zeros, a
 * plus sign, surrounding spaces, the name twice, and (for a parameter without a maximum, such as page) a value
 * above 2^31-1.
 */
export function ambiguousIntegerForms(schema: SchemaObject): AmbiguousForm[] {
  if (schema.type !== 'integer') return [];
  const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  // A value with two digits, so that a leading zero read as octal (010 is 8) shows.
  const n = String(Math.min(max ?? 10, Math.max(min, 10)));
  const other = String(Math.min(max ?? 20, Math.max(min, 20)));
  return [
    { value: `0${n}`, readAs: [n] },
    { value: `+${n}`, readAs: [n] },
    { value: ` ${n} `, readAs: [n] },
    { value: n, again: other, readAs: [n, other] },
    ...(max === undefined ? [{ value: String(2 ** 31), readAs: [] }] : []),
  ];
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
