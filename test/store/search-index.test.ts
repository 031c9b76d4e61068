import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAIN_BUILDERS } from '../../src/fixtures/domain-builders.ts';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { finishNow } from '../../src/store/between-requests.ts';
import { createSearchIndexBuilder } from '../../src/store/search-index.ts';
import { spec } from '../helpers.ts';

const { alerts, sensors } = generateDataset(spec.document, { seed: 21, counts: { alerts: 1500, sensors: 700 } });

/** Every string of a record, including the elements of arrays, lower-cased once (the scan below runs hundreds of times). */
const haystacks = new WeakMap<readonly Record<string, unknown>[], string[][]>();
const stringsOf = (records: readonly Record<string, unknown>[]) => {
  let strings = haystacks.get(records);
  if (!strings) {
    strings = records.map((record) =>
      Object.values(record)
        .flat()
        .filter((v): v is string => typeof v === 'string')
        .map((v) => v.toLowerCase()),
    );
    haystacks.set(records, strings);
  }
  return strings;
};

/** The definition the index must agree with: a plain scan (case-insensitive substring of any string field). */
const scan = (records: readonly Record<string, unknown>[], term: string) => {
  const needle = term.toLowerCase();
  return stringsOf(records).flatMap((values, i) => (values.some((v) => v.includes(needle)) ? [i] : []));
};

const build = (records: readonly Record<string, unknown>[], sample = 200, trigrams = false, packed = false, pooled?: readonly string[]) => {
  const builder = createSearchIndexBuilder(records.slice(0, sample), pooled, { packed, expected: packed ? records.length : undefined });
  for (const r of records) builder.add(r);
  return finishNow(builder.finishing({ trigrams }));
};

describe.each([
  { trigrams: false, packed: false },
  { trigrams: true, packed: false },
  { trigrams: false, packed: true },
  { trigrams: true, packed: true },
])('search index (trigrams: $trigrams, packed: $packed)', ({ trigrams, packed }) => {
  // As the server builds them: the generator's pooled fields as codes, the rest as text or digits.
  const alertIndex = build(alerts!, 200, trigrams, packed, DOMAIN_BUILDERS.Alert!.pooledFields);
  const sensorIndex = build(sensors!, 200, trigrams, packed, DOMAIN_BUILDERS.Sensor!.pooledFields);

  it('agrees with a plain scan on terms taken from the data, in any case', () => {
    const terms = fc.sample(
      fc.oneof(
        fc
          .constantFrom(...alerts!.slice(0, 50))
          .chain((r) =>
            fc.constantFrom(
              ...Object.values(r)
                .flat()
                .filter((v): v is string => typeof v === 'string'),
            ),
          )
          .chain((value) => fc.tuple(fc.nat(value.length), fc.integer({ min: 1, max: 12 })).map(([at, n]) => value.slice(at, at + n))),
        fc.string({ maxLength: 4 }),
      ),
      { numRuns: 150, seed: 7 },
    );
    for (const term of terms) {
      for (const casing of [term, term.toUpperCase()]) {
        expect(Array.from(alertIndex.search(casing)), casing).toEqual(scan(alerts!, casing));
      }
    }
  });

  it('agrees with a plain scan on hex and digit terms, whose trigram lists differ most in length', () => {
    // Ids are hex and timestamps digits: a digit trigram is in nearly every record, a hex one in a few,
    // so intersections pair lists of very different lengths (the bench's fresh search terms are these).
    const terms = fc.sample(fc.stringMatching(/^[0-9a-f]{3,8}$/), { numRuns: 200, seed: 11 });
    terms.push('2026', '026-1', '0-11t0', '1.8', '00z');
    for (const term of terms) expect(Array.from(alertIndex.search(term)), term).toEqual(scan(alerts!, term));
  });

  it('matches pooled values (dictionary fields) and per-record values (text blocks) alike', () => {
    for (const term of [
      'rotterdam',
      'active',
      'ph28-',
      'shipment logger',
      String(sensors![3]!.id),
      String(sensors![3]!.created_at).slice(0, 13),
    ]) {
      expect(Array.from(sensorIndex.search(term)), term).toEqual(scan(sensors!, term));
      expect(Array.from(alertIndex.search(term)), term).toEqual(scan(alerts!, term));
    }
  });

  it('keeps a value as text when a sampled-as-rare field turns out to have many values', () => {
    // A sample of 5 sees 5 codes; the other 1,495 must still be found.
    const index = build(alerts!, 5, trigrams, packed);
    const code = String(alerts![1234]!.code);
    expect(Array.from(index.search(code))).toEqual(scan(alerts!, code));
  });

  it('keeps codes apart from absent values when a field outgrows one byte of codes', () => {
    // Codes take a byte until the 256th value, then two: records without the field must still match nothing.
    const records = Array.from({ length: 900 }, (_, i) => (i % 3 === 1 ? { n: i } : { kind: `k${String(i).padStart(4, '0')}x` }));
    const builder = createSearchIndexBuilder(records.slice(0, 10), ['kind'], { packed });
    for (const r of records) builder.add(r);
    const index = finishNow(builder.finishing({ trigrams }));
    for (const i of [0, 2, 381, 382, 383, 384, 385, 899]) {
      const term = `k${String(i).padStart(4, '0')}x`;
      expect(Array.from(index.search(term)), term).toEqual(scan(records, term));
    }
    expect(Array.from(index.search('x'))).toEqual(scan(records, 'x'));
  });

  it('tells apart the fields whose values match, among many fields and two-byte codes', () => {
    // Every dictionary's values share one buffer and trigram index: a value must lead back to its own
    // field's records, past code 255, and a text in two fields to the records of both.
    const records = Array.from({ length: 1200 }, (_, i) => ({
      a: `v${String(i % 600).padStart(4, '0')}`,
      b: i % 7 === 0 ? 'shared' : `w${String(i % 400).padStart(4, '0')}`,
      c: i % 11 === 0 ? 'shared' : 'other',
    }));
    const builder = createSearchIndexBuilder(records.slice(0, 10), ['a', 'b', 'c'], { packed });
    for (const r of records) builder.add(r);
    const index = finishNow(builder.finishing({ trigrams }));
    for (const term of ['v0599', 'v0300', 'w0399', 'shared', 'share', 'other', 'v05', '0399']) {
      expect(Array.from(index.search(term)), term).toEqual(scan(records, term));
    }
  });

  it('never matches across fields or records', () => {
    expect(alertIndex.search('\u001f').length).toBe(0);
    expect(alertIndex.search('\u001e').length).toBe(0);
  });
});

describe.each([{ expected: true }, { expected: false }])(
  'packed values (hex digits of ids and timestamps; records expected: $expected)',
  ({ expected }) => {
    // Past two chunks of 8,192 records, with odd and even widths (17 and 32 digits), values in upper
    // case, values of another shape and absent values: the cases the digit columns must get right.
    let state = 12345;
    // mulberry32: a fixed sequence, random in every bit.
    const next = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (t ^ (t >>> 14)) >>> 0;
    };
    const SAMPLE = 200;
    const shared = 'c0ffee';
    const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[next() % 16]).join('');
    const records = Array.from({ length: 20_000 }, (_, i) => {
      const id = `${hex(8)}-${hex(4)}-4${hex(3)}-${hex(4)}-${hex(12)}`;
      const at = new Date(Date.UTC(2026, 0, 1) + (next() % 2 ** 31) * 17).toISOString();
      const record: Record<string, unknown> = { id: i % 97 === 5 ? id.toUpperCase() : id, at, n: i };
      if (i % 83 === 7) delete record.at;
      // Runs of records sharing a value: a match right at the start of the next record must not be skipped.
      if (i % 101 >= 50 && i % 101 < 53) record.id = `${shared}${id.slice(6)}`;
      // Past the sample, which gives each field its shape.
      if (i >= SAMPLE && i % 89 === 3) record.id = `not-a-uuid-${i}`;
      if (i >= SAMPLE && i % 79 === 1) record.at = `${at.slice(0, 10)} ${at.slice(11)}`;
      return record;
    });
    // Told how many records come, a column is one allocation; otherwise chunks of 8,192 records.
    const builder = createSearchIndexBuilder(records.slice(0, SAMPLE), [], {
      packed: true,
      expected: expected ? records.length : undefined,
    });
    for (const r of records) builder.add(r);
    const index = finishNow(builder.finishing());

    it('finds what a plain scan finds, for every kind of term', () => {
      const terms = new Set<string>([
        ...'0123456789abcdef-t:.z',
        ...['00', 'a0', 'f', 'ff', '-4', '4-', 't0', '0t', ':5', '.9', '9z', 'z', '-', '--', 'zz', 'x', 'not-a', '2026', '2026-0', ' '],
        ...['a-uuid', 'uuid-1', '-01', 'T1', '.1', '9Z', 'AbC', 'AB-', shared, shared.slice(0, 3), shared.slice(1)],
      ]);
      for (let i = 0; i < 200; i += 1) {
        const a = records[next() % records.length]!;
        const value = String(next() % 2 ? a.id : (a.at ?? a.id));
        const from = next() % value.length;
        terms.add(value.slice(from, from + 1 + (next() % 14)));
      }
      // The end of one record's digits and the start of the next one's: no value holds both.
      for (const i of [0, 8191, 8192, 16383, 19998]) {
        terms.add(`${String(records[i]!.id).slice(-3)}${String(records[i + 1]!.id).slice(0, 3)}`);
        terms.add(`${String(records[i]!.at).slice(-5, -1)}${String(records[i + 1]!.at).slice(0, 3)}`);
      }
      for (const term of terms) {
        for (const casing of [term, term.toUpperCase()]) {
          expect(Array.from(index.search(casing)), casing).toEqual(scan(records, casing));
        }
      }
    });

    it('finds whole values, including those kept as text', () => {
      for (const i of [0, 5, 7, 201, 8191, 8192, 9000, 19_999]) {
        for (const field of ['id', 'at']) {
          const value = records[i]![field];
          if (typeof value === 'string') expect(Array.from(index.search(value)), value).toEqual(scan(records, value));
        }
      }
    });
  },
);

describe('finishing an index in steps', () => {
  it('yields many short steps and gives the index the steps give at once', () => {
    const build = () => {
      const builder = createSearchIndexBuilder(alerts!.slice(0, 500), DOMAIN_BUILDERS.Alert!.pooledFields);
      for (const record of alerts!) builder.add(record);
      return builder;
    };
    const whole = finishNow(build().finishing({ trigrams: true }));
    const work = build().finishing({ trigrams: true });
    let steps = 0;
    let step = work.next();
    for (; !step.done; step = work.next()) steps += 1;
    // 1,500 records' trigram postings, 16 texts a step: about a hundred steps, none of them the whole.
    expect(steps).toBeGreaterThan(50);
    for (const term of ['active', 'ph28', '2026-1', alerts![7]!.id as string, 'no such text'])
      expect([...step.value.search(term)]).toEqual([...whole.search(term)]);
  });
});
