import type { SchemaObject } from 'openapi3-ts/oas31';
import { resolveRef } from '../../spec/resolve-ref.ts';
import type { OperationContext } from '../check.ts';

/** Whether `record` contains `term` in one of its strings (or strings of its arrays), ignoring case. */
export function containsTerm(record: unknown, term: string): boolean {
  if (typeof record !== 'object' || record === null) return false;
  const needle = term.toLowerCase();
  return Object.values(record).some((value) =>
    (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle)),
  );
}

/**
 * A search term taken from a real record: the value of the first plain string field (no format, in the
 * schema's order) that only one record of the listing has, so a search for it has one right answer.
 */
export async function pickSearchTerm(context: OperationContext): Promise<{ term: string; record: Record<string, unknown> } | undefined> {
  const schema = context.document.components?.schemas?.[context.operation.itemSchema];
  const properties = schema ? resolveRef<SchemaObject>(context.document, schema).properties ?? {} : {};
  const fields = Object.entries(properties)
    .filter(([, p]) => 'type' in p && p.type === 'string' && !('format' in p))
    .map(([name]) => name);
  const { records } = await context.listing();
  for (const field of fields) {
    const counts = new Map<string, number>();
    for (const r of records) if (typeof r[field] === 'string') counts.set((r[field] as string).toLowerCase(), (counts.get((r[field] as string).toLowerCase()) ?? 0) + 1);
    const record = records.find((r) => typeof r[field] === 'string' && (r[field] as string).length >= 4 && counts.get((r[field] as string).toLowerCase()) === 1);
    if (record) return { term: record[field] as string, record };
  }
  return undefined;
}

/** A term no record contains; fixed, so a failing run can be replayed. */
export const NO_MATCH_TERM = 'tempmon-no-match-5e1d9a';
