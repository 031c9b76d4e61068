import type { ApiRecord } from '../fixtures/record-factory.ts';

/** Finds, in order, the positions of the records whose string fields contain a term, ignoring case. */
export interface SearchIndex {
  search(term: string): Uint32Array;
}

/** Builds a {@link SearchIndex} one record at a time, so a large one can be built in slices. */
export interface SearchIndexBuilder {
  add(record: ApiRecord): void;
  finish(): SearchIndex;
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
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(FIELD).toLowerCase();
  return undefined;
}

/**
 * Starts an index whose layout is chosen from `sample` (the first records), or from `pooledFields`
 * when the generator says which fields draw from small sets. Those (status, account_id, sites_id...)
 * become 16-bit codes into a dictionary, searched once per term; the rest (ids, timestamps, codes) go into Latin-1 blocks searched with Buffer.indexOf, which
 * runs natively. A million alerts then take about 250 MB and a search a few tens of milliseconds.
 */
export function createSearchIndexBuilder(sample: readonly ApiRecord[], pooledFields?: readonly string[]): SearchIndexBuilder {
  const distinct = new Map<string, Set<string>>();
  for (const record of sample) {
    for (const [field, value] of Object.entries(record)) {
      const text = textOf(value);
      if (text === undefined) continue;
      let seen = distinct.get(field);
      if (!seen) distinct.set(field, (seen = new Set()));
      if (seen.size <= DICTIONARY_LIMIT) seen.add(text);
    }
  }
  const dictionaryFields = pooledFields ?? [...distinct].filter(([, values]) => values.size <= DICTIONARY_LIMIT).map(([field]) => field);
  const dictionaries = new Map(
    dictionaryFields.map((field) => [field, { values: [] as string[], codes: new Map<string, number>(), column: new Uint16Array(1024) }]),
  );

  // Text goes straight into fixed-size Latin-1/UTF-8 blocks: no large intermediate strings.
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
    finish() {
      flush();
      const columns = [...dictionaries.values()].map((d) => ({ values: d.values, column: d.column.subarray(0, count) }));
      const total = count;
      return {
        search(term) {
          const needle = term.toLowerCase();
          if (needle === '') return Uint32Array.from({ length: total }, (_, i) => i);
          if (needle.includes(FIELD) || needle.includes(RECORD)) return new Uint32Array(0);
          const hit = new Uint8Array(total);
          const bytes = Buffer.from(needle, 'utf8');
          let first = 0;
          for (const { buffer, starts } of blocks) {
            let from = 0;
            while (from < buffer.length) {
              const at = buffer.indexOf(bytes, from);
              if (at < 0) break;
              const i = lastStartAtOrBefore(starts, at);
              hit[first + i] = 1;
              from = starts[i + 1]!;
            }
            first += starts.length - 1;
          }
          for (const { values, column } of columns) {
            const matching = new Uint8Array(MAX_CODES + 1);
            let any = false;
            values.forEach((value, code) => {
              if (!value.includes(needle)) return;
              matching[code] = 1;
              any = true;
            });
            if (!any) continue;
            for (let i = 0; i < total; i += 1) if (matching[column[i]!]) hit[i] = 1;
          }
          let matches = 0;
          for (let i = 0; i < total; i += 1) matches += hit[i]!;
          const out = new Uint32Array(matches);
          for (let i = 0, j = 0; i < total; i += 1) if (hit[i]) out[j++] = i;
          return out;
        },
      };
    },
  };
}

/** Index of the last record start <= offset (binary search; starts are ascending). */
function lastStartAtOrBefore(starts: Uint32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
