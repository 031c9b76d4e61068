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

  it('refuses to be made without keys, or with an empty one', () => {
    expect(() => keyChecker([])).toThrow(/non-empty/);
    expect(() => keyChecker(['a', ''])).toThrow(/non-empty/);
  });
});
