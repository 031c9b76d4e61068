import type { ApiRecord } from '../fixtures/record-factory.ts';
import { searchColumn, trigramsOf, type TextColumn } from './text-column.ts';

/** Finds, in order, the positions of the records whose string fields contain a term, ignoring case. */
export interface SearchIndex {
  search(term: string): Uint32Array;
}

/** Builds a {@link SearchIndex} one record at a time, so a large one can be built in slices. */
export interface SearchIndexBuilder {
  add(record: ApiRecord): void;
  /** With `trigrams`, record texts also get trigram postings: faster searches for ~4x the memory. */
  finish(options?: { trigrams?: boolean }): SearchIndex;
}

// Records are joined with RS and fields with US: no generated or validated value contains either.
const FIELD = '\u001f';
const RECORD = '\u001e';
const BLOCK_BYTES = 4 * 1024 * 1024;
/** Above this many distinct values in the sample, a field is stored as text rather than as codes. */
const DICTIONARY_LIMIT = 256;
const MAX_CODES = 65_535;

/** The searchable text of a field: a string, or the strings of an array (sites_id), lower-cased. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value))
    return value
      .filter((v) => typeof v === 'string')
      .join(FIELD)
      .toLowerCase();
  return undefined;
}

/**
 * Starts an index whose layout is chosen from `sample` (the first records), or from `pooledFields`
 * when the generator says which fields draw from small sets. Those (status, account_id, sites_id...)
 * become 16-bit codes into a dictionary, searched once per term; the rest (ids, timestamps, codes) go into UTF-8 blocks searched with Buffer.indexOf, which
 * runs natively. A million alerts then take about 250 MB and a search a few tens of milliseconds.
 */
export function createSearchIndexBuilder(sample: readonly ApiRecord[], pooledFields?: readonly string[]): SearchIndexBuilder {
  const distinct = new Map<string, Set<string>>();
  for (const record of sample) {
    for (const [field, value] of Object.entries(record)) {
      const text = textOf(value);
      if (text === undefined) continue;
      let seen = distinct.get(field);
      if (!seen) {
        seen = new Set();
        distinct.set(field, seen);
      }
      if (seen.size <= DICTIONARY_LIMIT) seen.add(text);
    }
  }
  const dictionaryFields = pooledFields ?? [...distinct].filter(([, values]) => values.size <= DICTIONARY_LIMIT).map(([field]) => field);
  const dictionaries = new Map(
    dictionaryFields.map((field) => [field, { values: [] as string[], codes: new Map<string, number>(), column: new Uint16Array(1024) }]),
  );

  // Text goes straight into fixed-size UTF-8 blocks: no large intermediate strings.
  const blocks: { buffer: Buffer; starts: Uint32Array }[] = [];
  let buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  let starts: number[] = [];
  let used = 0;
  let count = 0;
  const flush = () => {
    if (starts.length === 0) return;
    blocks.push({ buffer: buffer.subarray(0, used), starts: Uint32Array.from([...starts, used]) });
    buffer = Buffer.allocUnsafe(BLOCK_BYTES);
    starts = [];
    used = 0;
  };
  const append = (text: string) => {
    const size = Buffer.byteLength(text, 'utf8') + 1;
    if (used + size > buffer.length) {
      flush();
      if (size > buffer.length) buffer = Buffer.allocUnsafe(size);
    }
    starts.push(used);
    used += buffer.write(text, used, 'utf8');
    buffer[used++] = 0x1e; // RECORD
  };

  return {
    add(record) {
      const parts: string[] = [];
      for (const dictionary of dictionaries.values()) {
        if (dictionary.column.length === count) {
          const grown = new Uint16Array(count * 2);
          grown.set(dictionary.column);
          dictionary.column = grown;
        }
        // Absent fields keep the reserved code, which no term matches.
        dictionary.column[count] = MAX_CODES;
      }
      for (const [field, value] of Object.entries(record)) {
        const text = textOf(value);
        if (text === undefined) continue;
        const dictionary = dictionaries.get(field);
        if (!dictionary) {
          parts.push(text);
          continue;
        }
        let code = dictionary.codes.get(text);
        if (code === undefined && dictionary.values.length < MAX_CODES) {
          code = dictionary.values.length;
          dictionary.values.push(text);
          dictionary.codes.set(text, code);
        }
        // More distinct values than codes: this record keeps the value as text instead.
        if (code === undefined) parts.push(text);
        else dictionary.column[count] = code;
      }
      append(parts.join(FIELD));
      count += 1;
    },
    finish({ trigrams = false } = {}) {
      flush();
      const texts = blocks.map((block) => ({ column: block, trigrams: trigrams ? trigramsOf(block) : undefined }));
      // Each dictionary is searched natively too: its values in one buffer, one after the other.
      const columns = [...dictionaries.values()].map((d) => {
        const starts = new Uint32Array(d.values.length + 1);
        let offset = 0;
        d.values.forEach((value, code) => {
          starts[code] = offset;
          offset += Buffer.byteLength(value, 'utf8') + 1;
        });
        starts[d.values.length] = offset;
        const text: TextColumn = { starts, buffer: Buffer.from(d.values.map((v) => v + RECORD).join(''), 'utf8') };
        const column = d.column.subarray(0, count);
        // Records by code, so a matching value leads straight to its records (small collections only).
        const byCode = trigrams ? recordsByCode(column, d.values.length) : undefined;
        // Reused by every search (and cleared after), rather than 64 KB allocated per field per search.
        return { text, trigrams: trigramsOf(text), column, byCode, matching: new Uint8Array(MAX_CODES + 1) };
      });
      const total = count;
      const seen = new Uint8Array(total);
      return {
        search(term) {
          const needle = term.toLowerCase();
          if (needle === '') return Uint32Array.from({ length: total }, (_, i) => i);
          if (needle.includes(FIELD) || needle.includes(RECORD)) return new Uint32Array(0);
          const hits: number[] = [];
          const mark = (i: number) => {
            if (seen[i]) return;
            seen[i] = 1;
            hits.push(i);
          };
          const bytes = Buffer.from(needle, 'utf8');
          let first = 0;
          for (const { column, trigrams: postings } of texts) {
            const offset = first;
            searchColumn(column, bytes, postings, (i) => mark(offset + i));
            first += column.starts.length - 1;
          }
          for (const { text, trigrams: postings, column, byCode, matching } of columns) {
            const codes: number[] = [];
            searchColumn(text, bytes, postings, (code) => {
              matching[code] = 1;
              codes.push(code);
            });
            if (codes.length === 0) continue;
            if (byCode) for (const code of codes) for (const i of byCode(code)) mark(i);
            else for (let i = 0; i < total; i += 1) if (matching[column[i]!]) mark(i);
            for (const code of codes) matching[code] = 0;
          }
          for (const i of hits) seen[i] = 0;
          const out = Uint32Array.from(hits);
          // Hits from one source arrive in order; only a mix of sources needs sorting.
          for (let k = 1; k < out.length; k += 1) if (out[k - 1]! > out[k]!) return out.sort();
          return out;
        },
      };
    },
  };
}

/** For each code of a column, the records holding it (ascending). */
function recordsByCode(column: Uint16Array, codes: number): (code: number) => Uint32Array {
  const counts = new Uint32Array(codes + 1);
  for (const code of column) if (code < codes) counts[code + 1]! += 1;
  for (let c = 1; c <= codes; c += 1) counts[c]! += counts[c - 1]!;
  const records = new Uint32Array(counts[codes]!);
  const fill = counts.slice(0, codes);
  column.forEach((code, i) => {
    if (code < codes) records[fill[code]!++] = i;
  });
  return (code) => records.subarray(counts[code]!, counts[code + 1]!);
}
