import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headShifted } from '../../../src/contract/model/read-listing.ts';

const listing = (n: number) => Array.from({ length: n }, (_, i) => `r${i}`);

describe('headShifted: two answers to one request that are one listing at two moments', () => {
  it('holds for a page read before and after records arrived at the head (either way round)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 25 }), (arrived, size) => {
        const all = listing(80);
        const before = all.slice(arrived, arrived + size);
        const after = all.slice(0, size);
        expect(headShifted(before, after)).toBe(true);
        expect(headShifted(after, before)).toBe(true);
      }),
    );
  });

  it('fails for the same records in another order, and for a record missing from the middle', () => {
    const page = listing(20);
    const swapped = [page[1]!, page[0]!, ...page.slice(2)];
    expect(headShifted(page, swapped)).toBe(false);
    expect(headShifted(page, [...page.slice(0, 5), ...page.slice(6), 'r20'])).toBe(false);
  });
});
