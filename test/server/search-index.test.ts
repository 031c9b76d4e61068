import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { createSearchIndexBuilder } from '../../src/server/search-index.ts';
import { spec } from '../helpers.ts';

const { alerts, sensors } = generateDataset(spec.document, { seed: 21, counts: { alerts: 1500, sensors: 700 } });

/** Every string of a record, including the elements of arrays, lower-cased once (the scan below runs 1,200 times). */
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

const build = (records: readonly Record<string, unknown>[], sample = 200, trigrams = false) => {
  const builder = createSearchIndexBuilder(records.slice(0, sample));
  for (const r of records) builder.add(r);
  return builder.finish({ trigrams });
};

describe.each([false, true])('search index (trigrams: %s)', (trigrams) => {
  const alertIndex = build(alerts!, 200, trigrams);
  const sensorIndex = build(sensors!, 200, trigrams);

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
      { numRuns: 300, seed: 7 },
    );
    for (const term of terms) {
      for (const casing of [term, term.toUpperCase()]) {
        expect(Array.from(alertIndex.search(casing)), casing).toEqual(scan(alerts!, casing));
      }
    }
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
    const index = build(alerts!, 5, trigrams);
    const code = String(alerts![1234]!.code);
    expect(Array.from(index.search(code))).toEqual(scan(alerts!, code));
  });

  it('never matches across fields or records', () => {
    expect(alertIndex.search('\u001f').length).toBe(0);
    expect(alertIndex.search('\u001e').length).toBe(0);
  });
});
