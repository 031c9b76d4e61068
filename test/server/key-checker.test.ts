import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyChecker } from '../../src/server/key-checker.ts';

describe('keyChecker', () => {
  const long = 'k'.repeat(300);
  const check = keyChecker(['alpha', 'béta-κλειδί', long]);

  it('names which configured key was given', () => {
    expect(check('alpha')).toBe(0);
    expect(check('béta-κλειδί')).toBe(1);
    // Longer than the minimum width: the buffers widen to the longest key.
    expect(check(long)).toBe(2);
  });

  it.each([
    ['nothing', undefined],
    ['an empty value', ''],
    ['a prefix', 'alph'],
    ['a suffix added', 'alphaa'],
    ['the key padded with the zero bytes it is compared in', 'alpha\u0000\u0000'],
    ['another letter case', 'ALPHA'],
    ['a multi-byte key cut short', 'béta-κλειδ'],
    ['a longer key cut to the width', `${long}k`],
    ['a value far past the width', 'x'.repeat(10_000)],
  ])('refuses %s', (_, given) => {
    expect(check(given)).toBe(-1);
  });

  it('gives the same verdicts however often and in whatever order it is asked (its buffer is reused)', () => {
    const asked = ['x'.repeat(400), 'alpha', 'alp', long, 'alpha', '', 'béta-κλειδί'];
    expect(asked.map(check)).toEqual([-1, 0, -1, 2, 0, -1, 1]);
  });

  it('refuses a value cut short of the width at a character, whose first bytes are a key', () => {
    // The buffers are 300 bytes wide; 'é' takes two bytes, so write() stops after the 299 k's.
    const near = keyChecker(['k'.repeat(299), 'x'.repeat(300)]);
    expect(near(`${'k'.repeat(299)}é`)).toBe(-1);
    expect(near(`${'k'.repeat(298)}é`)).toBe(-1);
    expect(near('k'.repeat(299))).toBe(0);
  });

  it('agrees with a plain lookup for any keys and value, near the width included', () => {
    // Strings of 250-300 characters of one to four UTF-8 bytes cross the 256-byte width, where write() cuts.
    const text = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom('a', 'b', 'é', '€', '😀'), minLength: min, maxLength: max });
    fc.assert(
      fc.property(fc.array(text(1, 300), { minLength: 1, maxLength: 3 }), fc.option(text(0, 300)), fc.nat(3), (keys, value, pick) => {
        const given = pick < keys.length && value === null ? keys[pick] : (value ?? undefined);
        const check = keyChecker(keys);
        expect(check(given)).toBe(given ? keys.lastIndexOf(given) : -1);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses to be made without keys, or with an empty one', () => {
    expect(() => keyChecker([])).toThrow(/non-empty/);
    expect(() => keyChecker(['a', ''])).toThrow(/non-empty/);
  });
});
