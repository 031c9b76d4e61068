import type { ApiRecord } from '../fixtures/record-factory.ts';
import { createHexColumnBuilder, type HexColumn, type HexColumnBuilder, type Shape, shapeOf } from './hex-column.ts';
import type { Steps } from './between-requests.ts';
import { searchColumn, type TextColumn, type Trigrams, textColumnOf, trigramsBuilding } from './text-column.ts';

/** Finds, in order, the positions of the records whose string fields contain a term, ignoring case. */
export interface SearchIndex {
  search(term: string): Uint32Array;
}

/** Builds a {@link SearchIndex} one record at a time, so a large one can be built in slices. */
export interface SearchIndexBuilder {
  add(record: ApiRecord): void;
  /**
   * Finishes the index in short steps, for a build between requests (finishNow runs them at once). With
   * `trigrams`, record texts also get trigram postings: faster searches for several times the memory.
   */
  finishing(options?: { trigrams?: boolean }): Steps<SearchIndex>;
}

/** How many of the first records a store gives createSearchIndexBuilder to lay its index out. */
export const LAYOUT_SAMPLE = 2_000;

/** How a builder lays out its index (see createSearchIndexBuilder). */
export interface SearchIndexOptions {
  /** How many records will be added: code and digit columns are allocated once, at that size. */
  readonly expected?: number;
  /**
   * Keeps only the hex digits of fixed-shape values (UUIDs, ISO timestamps), 4 bits each: less than
   * half their text's memory, for large collections, whose searches scan rather than use trigrams.
   */
  readonly packed?: boolean;
  /**
   * With `packed`, the records each index of the layout holds when a collection's index is in parts (see
   * searchLayout): a field drawn from a set too large to repeat much within one part is kept as hex digits,
   * since each part would keep its own copy of the values.
   */
  readonly partSize?: number;
}

// Records are joined with RS and fields with US: no generated or validated value contains either.
const FIELD = '\u001f';
const RECORD = '\u001e';
const BLOCK_BYTES = 4 * 1024 * 1024;
/** Above this many distinct values in the sample, a field is stored as text rather than as codes. */
const DICTIONARY_LIMIT = 256;
const MAX_CODES = 65_535;

/** A field's values by code, and each record's code: one byte while 255 codes suffice, then two. */
interface Dictionary {
  readonly values: string[];
  /** Codes by lower-cased value. */
  readonly codes: Map<string, number>;
  /** Codes by value as given: a pooled value is most often the very string seen before. */
  readonly byValue: Map<string, number>;
  column: Uint8Array | Uint16Array;
  /** The code of a record without this field (or with a value kept as text), which no term matches. */
  absent: number;
}

/** A new code for `value`, the column made two bytes wide when one no longer suffices; undefined past MAX_CODES. */
function newCode(dictionary: Dictionary, value: string): number | undefined {
  const code = dictionary.values.length;
  if (code >= MAX_CODES) return undefined;
  if (code === dictionary.absent) {
    const wide = new Uint16Array(dictionary.column.length);
    dictionary.column.forEach((c, i) => {
      wide[i] = c === dictionary.absent ? MAX_CODES : c;
    });
    dictionary.column = wide;
    dictionary.absent = MAX_CODES;
  }
  dictionary.values.push(value);
  dictionary.codes.set(value, code);
  return code;
}

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
 * A record's searchable text: its string fields (and string arrays) lower-cased, joined by the field
 * separator. A term is in it exactly when a search index finds the record (see {@link textHolds}).
 */
export function searchTextOf(record: ApiRecord): string {
  let text = '';
  for (const field in record) {
    const part = textOf(record[field]);
    if (part !== undefined) text = text === '' ? part : text + FIELD + part;
  }
  return text;
}

/** A term holding a field or record separator finds nothing: no value contains either. */
const searchable = (needle: string) => !needle.includes(FIELD) && !needle.includes(RECORD);

/**
 * Whether a record's searchable text (see {@link searchTextOf}) holds `needle` (lower-cased), as a search
 * index finds it: the test for the few records a live collection has not indexed (yet).
 */
export function textHolds(text: string, needle: string): boolean {
  return searchable(needle) && text.includes(needle);
}

/**
 * How an index keeps its records' fields, chosen once from a sample (see createSearchIndexBuilder): the
 * fields kept as codes, and those kept as hex digits. The parts of one collection's index share one, so
 * each part costs no sample and no layout.
 */
export interface SearchLayout {
  /** A builder of an index laid out so; `expected` records, as SearchIndexOptions says. */
  builder(expected?: number): SearchIndexBuilder;
}

/**
 * Starts an index whose layout is chosen from `sample` (the first records), or from `pooledFields`
 * when the generator says which fields draw from small sets. Those (status, account_id, sites_id...)
 * become 8- or 16-bit codes into a dictionary; all dictionaries are searched together, once per term.
 * With `packed`, so do fields whose sampled values repeat, and a field whose sampled values share one
 * shape (ids, timestamps) keeps only its hex digits (see hex-column.ts), scanned natively. The rest go
 * into UTF-8 blocks searched with Buffer.indexOf, which runs natively too: packed alerts take about half
 * their size as text (the bench prints the figures).
 *
 * @example
 * const builder = createSearchIndexBuilder(records.slice(0, LAYOUT_SAMPLE));
 * for (const record of records) builder.add(record);
 * finishNow(builder.finishing({ trigrams: true })).search('ph28'); // positions, ascending
 */
export function createSearchIndexBuilder(
  sample: readonly ApiRecord[],
  pooledFields?: readonly string[],
  options: SearchIndexOptions = {},
): SearchIndexBuilder {
  return searchLayout(sample, pooledFields, options).builder(options.expected);
}

/**
 * The layout createSearchIndexBuilder would choose from `sample`, for any number of builders.
 *
 * @example
 * const layout = searchLayout(sample, pooledFields, { packed: true });
 * const parts = [layout.builder(4096), layout.builder(4096)];
 */
export function searchLayout(
  sample: readonly ApiRecord[],
  pooledFields?: readonly string[],
  options: Pick<SearchIndexOptions, 'packed' | 'partSize'> = {},
): SearchLayout {
  // Each field's sampled texts, and whether they were all strings (an array, sites_id, gets no shape).
  const sampled = new Map<string, { texts: string[]; strings: boolean }>();
  for (const record of sample) {
    for (const field in record) {
      const value = record[field];
      const text = textOf(value);
      if (text === undefined) continue;
      let entry = sampled.get(field);
      if (!entry) {
        entry = { texts: [], strings: true };
        sampled.set(field, entry);
      }
      entry.texts.push(text);
      if (typeof value !== 'string') entry.strings = false;
    }
  }
  const fields = [...sampled].map(([field, { texts, strings }]) => ({ field, texts, strings, distinct: new Set(texts).size }));
  const dictionaryFields = new Set(pooledFields ?? fields.filter((f) => f.distinct <= DICTIONARY_LIMIT).map((f) => f.field));
  if (options.packed) {
    // Values that repeat within the sample come from a set small enough for codes: n values with r
    // repeats suggest about n^2/2r in all (the birthday rule). Sensor names, say, are not pooled but repeat.
    for (const { field, texts, distinct } of fields) {
      const repeats = texts.length - distinct;
      if (repeats > 0 && (texts.length * texts.length) / (2 * repeats) <= MAX_CODES / 2) dictionaryFields.add(field);
    }
  }
  // A field most sampled records have, always with one shape: a record's value of that shape can be kept
  // as hex digits; any other value of it stays text.
  const shapeFor = ({ texts, strings }: (typeof fields)[number]) =>
    strings && texts.length * 2 >= sample.length ? shapeOf(texts) : undefined;
  const { partSize } = options;
  if (options.packed && partSize !== undefined) {
    for (const field of fields) {
      // The values one part would hold, from the set's size as the birthday rule guesses it.
      const { texts, distinct } = field;
      const repeats = texts.length - distinct;
      const set = repeats === 0 ? Number.POSITIVE_INFINITY : (texts.length * texts.length) / (2 * repeats);
      const perPart = Number.isFinite(set) ? set * (1 - Math.exp(-partSize / set)) : partSize;
      // Hex digits only: as text, the field would cost a native scan of every record's value per search (a
      // part's dictionary is searched through its values' trigrams), 4x slower searches over 100,000 alerts.
      if (perPart > partSize / 4 && shapeFor(field)) dictionaryFields.delete(field.field);
    }
  }
  const shapes = new Map<string, Shape>();
  if (options.packed) {
    for (const field of fields) {
      if (dictionaryFields.has(field.field)) continue;
      const shape = shapeFor(field);
      if (shape) shapes.set(field.field, shape);
    }
  }
  return { builder: (expected) => laidOutBuilder([...dictionaryFields], shapes, expected) };
}

/** A builder of an index with these fields as codes and these as hex digits (see searchLayout). */
function laidOutBuilder(dictionaryFields: readonly string[], shapes: ReadonlyMap<string, Shape>, expected?: number): SearchIndexBuilder {
  const capacity = Math.max(1024, expected ?? 0);
  const dictionaries = new Map<string, Dictionary>(
    dictionaryFields.map((field) => [
      field,
      { values: [], codes: new Map(), byValue: new Map(), column: new Uint8Array(capacity).fill(255), absent: 255 },
    ]),
  );
  const hexColumns = new Map<string, HexColumnBuilder>(
    [...shapes].map(([field, shape]) => [field, createHexColumnBuilder(shape, expected)]),
  );

  // Text goes straight into fixed-size UTF-8 blocks: no large intermediate strings.
  const blocks: { buffer: Buffer; starts: Uint32Array }[] = [];
  let buffer: Buffer | undefined;
  let starts = new Uint32Array(4096);
  let stored = 0;
  let used = 0;
  let count = 0;
  const flush = (last = false) => {
    if (!buffer || stored === 0) return;
    const ends = new Uint32Array(stored + 1);
    ends.set(starts.subarray(0, stored));
    ends[stored] = used;
    // The last block is copied to its size, rather than keep the rest of its 4 MiB.
    blocks.push({ buffer: last ? Buffer.from(buffer.subarray(0, used)) : buffer.subarray(0, used), starts: ends });
    buffer = undefined;
    stored = 0;
    used = 0;
  };
  const append = (text: string) => {
    const size = Buffer.byteLength(text, 'utf8') + 1;
    if (!buffer || used + size > buffer.length) {
      flush();
      buffer = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, size));
    }
    if (stored === starts.length) {
      const grown = new Uint32Array(stored * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[stored++] = used;
    used += buffer.write(text, used, 'utf8');
    buffer[used++] = 0x1e; // RECORD
  };

  return {
    add(record) {
      let text: string | undefined;
      for (const dictionary of dictionaries.values()) {
        if (dictionary.column.length === count) {
          const grown = dictionary.absent === MAX_CODES ? new Uint16Array(count * 2) : new Uint8Array(count * 2);
          grown.set(dictionary.column);
          dictionary.column = grown.fill(dictionary.absent, count);
        }
      }
      for (const field in record) {
        const value = record[field];
        const dictionary = dictionaries.get(field);
        if (typeof value === 'string') {
          if (hexColumns.get(field)?.set(count, value)) continue;
          // A pooled value is most often the very string seen before: found by it, without lower-casing.
          const code = dictionary?.byValue.get(value);
          if (code !== undefined) {
            dictionary!.column[count] = code;
            continue;
          }
        }
        const part = textOf(value);
        if (part === undefined) continue;
        if (dictionary) {
          const code = dictionary.codes.get(part) ?? newCode(dictionary, part);
          if (code !== undefined) {
            if (typeof value === 'string' && dictionary.byValue.size < MAX_CODES) dictionary.byValue.set(value, code);
            dictionary.column[count] = code;
            continue;
          }
          // More distinct values than codes: this record keeps the value as text instead.
        }
        text = text === undefined ? part : text + FIELD + part;
      }
      append(text ?? '');
      count += 1;
    },
    *finishing({ trigrams = false } = {}) {
      flush(true);
      starts = new Uint32Array(0);
      const texts: { column: TextColumn; trigrams: Trigrams | undefined }[] = [];
      for (const block of blocks) texts.push({ column: block, trigrams: trigrams ? yield* trigramsBuilding(block) : undefined });
      const hex: HexColumn[] = [];
      for (const builder of hexColumns.values()) {
        yield;
        hex.push(builder.finish(count));
      }
      // Every dictionary's values in one buffer, one after another, with one trigram index: a search
      // looks each of its trigrams up once for all fields, rather than once per field (each field's
      // index was a cold lookup more per trigram: most of a search's time when served).
      const fields = [...dictionaries.values()];
      const valueCount = fields.reduce((n, d) => n + d.values.length, 0);
      // Value k's field (high 16 bits) and code (low 16 bits: codes are below MAX_CODES).
      const owner = new Uint32Array(valueCount);
      let k = 0;
      for (const [f, d] of fields.entries()) for (let code = 0; code < d.values.length; code += 1) owner[k++] = f * 0x10000 + code;
      const values = textColumnOf(fields.flatMap((d) => d.values));
      const valueTrigrams = yield* trigramsBuilding(values);
      const columns: {
        column: Uint8Array | Uint16Array;
        byCode: ((code: number) => Uint32Array) | undefined;
        matching: Uint8Array;
        codes: number[];
      }[] = [];
      for (const d of fields) {
        yield;
        const column = d.column.subarray(0, count);
        columns.push({
          column,
          // Records by code, so a matching value leads straight to its records (small collections only).
          byCode: trigrams ? recordsByCode(column, d.values.length) : undefined,
          // Shared by every index (a search runs to its end and clears it): an array per field, not per field
          // per index (a live collection's index has a part per few thousand records).
          matching: matchingScratch(columns.length),
          codes: [] as number[],
        });
      }
      // The values' own maps served the adding only; the index lives on (a live collection keeps a part per
      // block), and the builder's scope with it.
      for (const d of fields) {
        d.codes.clear();
        d.byValue.clear();
        d.values.length = 0;
      }
      const total = count;
      const seen = new Uint8Array(total);
      return {
        search(term) {
          const needle = term.toLowerCase();
          if (needle === '') return Uint32Array.from({ length: total }, (_, i) => i);
          if (!searchable(needle)) return new Uint32Array(0);
          const hits: number[] = [];
          let ordered = true;
          const mark = (i: number) => {
            if (seen[i]) return;
            seen[i] = 1;
            if (hits.length > 0 && hits[hits.length - 1]! > i) ordered = false;
            hits.push(i);
          };
          const bytes = Buffer.from(needle, 'utf8');
          let first = 0;
          for (const { column, trigrams: postings } of texts) {
            const offset = first;
            searchColumn(column, bytes, postings, (i) => mark(offset + i));
            first += column.starts.length - 1;
          }
          for (const column of hex) column.search(needle, mark);
          searchColumn(values, bytes, valueTrigrams, (v) => {
            const field = columns[owner[v]! >>> 16]!;
            const code = owner[v]! & 0xffff;
            field.matching[code] = 1;
            field.codes.push(code);
          });
          for (const { column, byCode, matching, codes } of columns) {
            if (codes.length === 0) continue;
            if (byCode) for (const code of codes) for (const i of byCode(code)) mark(i);
            else for (let i = 0; i < total; i += 1) if (matching[column[i]!]) mark(i);
            for (const code of codes) matching[code] = 0;
            codes.length = 0;
          }
          // Hits from one source arrive in order; a mix of sources is put in order, by sorting a few
          // or by reading the marks of many.
          const few = hits.length * 8 < total;
          let out: Uint32Array;
          if (ordered) out = Uint32Array.from(hits);
          else if (few) out = Uint32Array.from(hits).sort();
          else {
            out = new Uint32Array(hits.length);
            for (let i = 0, k = 0; i < total; i += 1) if (seen[i]) out[k++] = i;
          }
          if (few) for (const i of hits) seen[i] = 0;
          else seen.fill(0);
          return out;
        },
      };
    },
  };
}

/** The codes a search found, by field ordinal: one array per ordinal for every index (see finishing). */
const scratch: Uint8Array[] = [];
const matchingScratch = (field: number): Uint8Array => (scratch[field] ??= new Uint8Array(MAX_CODES + 1));

/** For each code of a column, the records holding it (ascending). */
function recordsByCode(column: Uint8Array | Uint16Array, codes: number): (code: number) => Uint32Array {
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
