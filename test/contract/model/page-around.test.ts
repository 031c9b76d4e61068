import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageAround } from '../../../src/contract/model/page-around.ts';

describe('pageAround', () => {
  it('gives a page of at most the largest size that holds the offset', () => {
    fc.assert(
      fc.property(fc.nat(2_000_000), fc.integer({ min: 1, max: 1_000 }), (offset, largest) => {
        const { index, size } = pageAround(offset, largest);
        expect(size).toBeGreaterThanOrEqual(1);
        expect(size).toBeLessThanOrEqual(largest);
        expect(index * size).toBeLessThanOrEqual(offset);
        expect(offset).toBeLessThan((index + 1) * size);
      }),
    );
  });

  it('puts a seam deep in the listing in the middle half of its page, with records on either side', () => {
    // The seams of a listing read at 100 a page: the old choice (a page of 20 from half a page above) ended just above each.
    for (const seam of [100, 101, 200, 300, 2_500, 249_900]) {
      const { index, size } = pageAround(seam, 100);
      const at = seam - index * size;
      expect(at, `seam ${seam}`).toBeGreaterThanOrEqual(size / 4);
      expect(at, `seam ${seam}`).toBeLessThan((3 * size) / 4);
    }
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 2_000_000 }), fc.integer({ min: 20, max: 1_000 }), (offset, largest) => {
        const { index, size } = pageAround(offset, largest);
        const at = offset - index * size;
        expect(at).toBeGreaterThanOrEqual(size / 4);
        expect(at).toBeLessThan((3 * size) / 4);
      }),
    );
  });
});
