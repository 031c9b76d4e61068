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
  const schema = context.document.components?.schemas?.[context.operation.itemSchema];
  const properties = schema ? (resolveRef<SchemaObject>(context.document, schema).properties ?? {}) : {};
  const fields = Object.entries(properties)
    .filter(([, p]) => 'type' in p && p.type === 'string' && !('format' in p))
    .map(([name]) => name);
  const { records } = await context.listing();
  for (const field of fields) {
    const texts = records.map((r) => (typeof r[field] === 'string' ? r[field] : undefined));
    const counts = new Map<string, number>();
    for (const text of texts) if (text !== undefined) counts.set(text.toLowerCase(), (counts.get(text.toLowerCase()) ?? 0) + 1);
    const at = texts.findIndex((text) => text !== undefined && text.length >= 4 && counts.get(text.toLowerCase()) === 1);
    if (at >= 0) return { term: texts[at]!, record: records[at]! };
  }
  return undefined;
}

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
