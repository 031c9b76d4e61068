import type { ApiRecord } from '../fixtures/record-factory.ts';

/** The records of one collection, in the documented order, with case-insensitive search. */
export interface RecordStore {
  readonly size: number;
  /** Records matching `term` (all of them for an empty term), in order. */
  filter(term: string): readonly ApiRecord[];
}

// Joins fields so that no term can match across two of them (unless it contains this character).
const SEPARATOR = '\u0000';

/**
 * Indexes `records` for search: each record's string fields, and the strings of its arrays (such as
 * sites_id), lower-cased once into one haystack. Numbers and booleans are not searched.
 */
export function createRecordStore(records: readonly ApiRecord[]): RecordStore {
  let haystacks: string[] | undefined;
  return {
    size: records.length,
    filter(term) {
      if (term === '') return records;
      haystacks ??= records.map(haystackOf);
      const needle = term.toLowerCase();
      if (needle.includes(SEPARATOR)) return [];
      return records.filter((_, i) => haystacks![i]!.includes(needle));
    },
  };
}

function haystackOf(record: ApiRecord): string {
  const parts: string[] = [];
  for (const value of Object.values(record)) {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') parts.push(item);
  }
  return parts.join(SEPARATOR).toLowerCase();
}
