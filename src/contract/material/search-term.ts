import fc from 'fast-check';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { resolveRef } from '../../spec/resolve-ref.ts';
import type { OperationContext } from '../model/context.ts';
import { includesIgnoringCase } from './case-forms.ts';
import { searchableStrings } from './listing-model.ts';

/**
 * Whether `record` contains `term` in one of its strings (or strings of its arrays), ignoring case under simple
 * or full case mapping (see case-forms.ts).
 */
export function containsTerm(record: unknown, term: string): boolean {
  if (typeof record !== 'object' || record === null) return false;
  return searchableStrings(record as Record<string, unknown>).some((v) => includesIgnoringCase(v, term));
}

/**
 * A search term taken from a real record: the value of the first plain string field (no format, in the
 * schema's order) that only one record of the listing has, so a search for it has one right answer.
 */
export async function pickSearchTerm(context: OperationContext): Promise<{ term: string; record: Record<string, unknown> } | undefined> {
  const { records } = await context.listing();
  for (const field of plainStringFields(context)) {
    const counts = valueCounts(records, field);
    const record = records.find((r) => distinctive(r[field], counts));
    if (record) return { term: record[field] as string, record };
  }
  return undefined;
}

/**
 * The value of the first plain string field (as pickSearchTerm) that `record` alone of `records` has, or undefined.
 *
 * @example
 * termOnlyIn(context, newest, [...head, ...listing.records]); // 'ALR-6507'
 */
export function termOnlyIn(
  context: OperationContext,
  record: Record<string, unknown>,
  records: readonly Record<string, unknown>[],
): string | undefined {
  const field = plainStringFields(context).find((f) => distinctive(record[f], valueCounts(records, f)));
  return field === undefined ? undefined : (record[field] as string);
}

/** The string fields of the listing's records with no format, in the schema's order. */
function plainStringFields(context: OperationContext): string[] {
  const schema = context.document.components?.schemas?.[context.operation.itemSchema];
  const properties = schema ? (resolveRef<SchemaObject>(context.document, schema).properties ?? {}) : {};
  return Object.entries(properties)
    .filter(([, p]) => 'type' in p && p.type === 'string' && !('format' in p))
    .map(([name]) => name);
}

/** How many records hold each value of `field`, ignoring case. */
function valueCounts(records: readonly Record<string, unknown>[], field: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) {
    const text = r[field];
    if (typeof text === 'string') counts.set(text.toLowerCase(), (counts.get(text.toLowerCase()) ?? 0) + 1);
  }
  return counts;
}

/** A value of 4 characters or more that one record alone holds. */
const distinctive = (text: unknown, counts: ReadonlyMap<string, number>): text is string =>
  typeof text === 'string' && text.length >= 4 && counts.get(text.toLowerCase()) === 1;

/**
 * A term no record can contain: 24 random consonants and digits from the seed (about 116 bits, no words), so the
 * answer does not depend on the model, and `--seed` replays it.
 */
export function noMatchTerm(seed: number, index = 0): string {
  const [term] = fc.sample(fc.string({ unit: fc.constantFrom(...'bcdfghjkmnpqrstvwxz0123456789'), minLength: 24, maxLength: 24 }), {
    seed: seed + index,
    numRuns: 1,
  });
  return `zq${term ?? ''}`;
}
