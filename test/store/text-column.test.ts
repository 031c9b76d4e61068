import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finishNow } from '../../src/store/between-requests.ts';
import { searchColumn, type TextColumn, textColumnOf, trigramsBuilding } from '../../src/store/text-column.ts';

const trigramsOf = (column: TextColumn) => finishNow(trigramsBuilding(column));

const found = (column: TextColumn, needle: string, withTrigrams: boolean) => {
  const out: number[] = [];
  searchColumn(column, Buffer.from(needle), withTrigrams ? trigramsOf(column) : undefined, (d) => out.push(d));
  return out;
};

describe('searchColumn', () => {
  it('finds the texts holding a needle, in order, with and without trigrams, as a plain scan does', () => {
    // Three letters: every trigram list is long or very long, and their lengths differ widely.
    const alphabet = fc.constantFrom('a', 'b', '0');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: alphabet, maxLength: 12 }), { minLength: 1, maxLength: 300 }),
        fc.string({ unit: alphabet, minLength: 1, maxLength: 6 }),
        (texts, needle) => {
          const column = textColumnOf(texts);
          const expected = texts.flatMap((text, i) => (text.includes(needle) ? [i] : []));
          expect(found(column, needle, true)).toEqual(expected);
          expect(found(column, needle, false)).toEqual(expected);
        },
      ),
      { numRuns: 400, seed: 5 },
    );
  });

  it('finds hex needles among thousands of distinct trigrams, as a plain scan does', () => {
    // Hex texts like the ids a search meets: a table of thousands of trigrams, with probe chains.
    const hex = fc.constantFrom(...'0123456789abcdef');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: hex, minLength: 8, maxLength: 40 }), { minLength: 50, maxLength: 400 }),
        fc.array(fc.string({ unit: hex, minLength: 3, maxLength: 6 }), { minLength: 1, maxLength: 20 }),
        (texts, needles) => {
          const column = textColumnOf(texts);
          const trigrams = trigramsOf(column);
          for (const needle of needles) {
            const out: number[] = [];
            searchColumn(column, Buffer.from(needle), trigrams, (d) => out.push(d));
            expect(out).toEqual(texts.flatMap((text, i) => (text.includes(needle) ? [i] : [])));
          }
        },
      ),
      { numRuns: 60, seed: 9 },
    );
  });

  it('intersects a short list with one in every text, down to the last text', () => {
    // Twenty texts hold `zzz` (more than are checked without intersecting), the last among them; every
    // text holds `aaa`: the last candidate is the last entry of the longest list.
    const texts = Array.from({ length: 1000 }, (_, i) => (i % 50 === 49 ? `aaazzz${i}` : `aaa${i}`));
    const expected = texts.flatMap((text, i) => (text.includes('aaazzz') ? [i] : []));
    expect(expected).toHaveLength(20);
    expect(expected.at(-1)).toBe(999);
    expect(found(textColumnOf(texts), 'aaazzz', true)).toEqual(expected);
  });
});
