// An answer's records and how a record is told apart: what every part of the kit compares answers by.
import type { Exchange } from './types.ts';

/** The records of a 200 JSON array response, or undefined when the response is anything else. */
export function recordsOf(exchange: Exchange): Record<string, unknown>[] | undefined {
  const { response } = exchange;
  if (response?.status !== 200 || !Array.isArray(response.json)) return undefined;
  return response.json as Record<string, unknown>[];
}

/** A short, stable identity for a record: its id when it has one, else its JSON. */
export const identity = (record: unknown): string =>
  typeof record === 'object' && record !== null && typeof (record as { id?: unknown }).id === 'string'
    ? (record as { id: string }).id
    : JSON.stringify(record);

/** The identities of records, to compare listings. */
export const identities = (records: readonly unknown[]): string[] => records.map(identity);
