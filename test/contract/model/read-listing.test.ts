import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readListing } from '../../../src/contract/model/read-listing.ts';
import type { Exchange } from '../../../src/contract/types.ts';

/** Page `page` of size `size` of a listing of `count` records, as an exchange. */
const pageOf = (count: number, page: number, size: number): Exchange => {
  const records = [];
  for (let i = (page - 1) * size; i < Math.min(count, page * size); i += 1) records.push({ id: `r${i}` });
  return {
    operationId: 'list',
    request: { method: 'GET', url: `http://t.test/list?page=${page}&pageSize=${size}`, headers: {} },
    response: { status: 200, headers: {}, text: JSON.stringify(records), json: records, durationMs: 0 },
  };
};

describe('reading a listing longer than --max-pages', () => {
  it('finds the end of any listing in O(log n) requests, with the count and the last page right', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 100 }),
        fc.nat(),
        async (count, maxPages, size, seed) => {
          const asked: number[] = [];
          const listing = await readListing(
            async (page, s) => {
              asked.push(page);
              return pageOf(count, page, s);
            },
            1,
            size,
            maxPages,
            seed,
          );
          if (count < maxPages * size) {
            expect(listing.complete).toBe(true);
            expect(listing.records).toHaveLength(count);
            return;
          }
          expect(listing.complete).toBe(false);
          expect(listing.records).toHaveLength(maxPages * size);
          expect(listing.end?.total).toBe(count);
          const last = Math.ceil(count / size);
          expect(listing.end?.last.page).toBe(last);
          expect(listing.end?.last.records.length).toBe(count - (last - 1) * size);
          // The gallop and the bisection: about 2 log2(pages) reads, plus at most 4 pairs.
          const beyond = asked.length - maxPages;
          expect(beyond).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(last / maxPages + 1)) + 2 + 8);
          expect(new Set(asked).size).toBe(asked.length);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it('samples the same pages for the same seed', async () => {
    const pages = async (seed: number) => {
      const asked: number[] = [];
      await readListing(
        async (page, size) => {
          asked.push(page);
          return pageOf(1_000_037, page, size);
        },
        1,
        100,
        50,
        seed,
      );
      return asked;
    };
    expect(await pages(3)).toEqual(await pages(3));
    expect(await pages(3)).not.toEqual(await pages(4));
  });

  it('says why when a page read to find the end is not a 200 array', async () => {
    const listing = await readListing(
      async (page, size) => (page > 60 ? { ...pageOf(0, 1, 1), response: undefined, error: 'timeout' } : pageOf(10_000, page, size)),
      1,
      100,
      50,
      1,
    );
    expect(listing.end).toBeUndefined();
    expect(listing.endProblem).toMatch(/^page 100 of size 100, read to find where the listing ends, got timeout/);
  });
});

describe('reading a listing whose records move while it is read', () => {
  /**
   * A window of `count` records: record `r(i)` is the i-th newest once `shift` have arrived. Each read after the
   * first `still` moves it on by one, unless reads were sent together (before any answer was awaited).
   */
  function window(count: number, still: number) {
    let shift = 0;
    let reads = 0;
    let sentTogether = 0;
    const reader = async (page: number, size: number): Promise<Exchange> => {
      reads += 1;
      // Reads sent in the same tick share a moment: the window moves on between ticks, not within one.
      if (sentTogether === 0 && reads > still) shift += 1;
      sentTogether += 1;
      queueMicrotask(() => (sentTogether = 0));
      const records = [];
      for (let i = (page - 1) * size; i < Math.min(count, page * size); i += 1) records.push({ id: `r${1_000_000 + shift - i}` });
      return {
        ...pageOf(0, page, size),
        response: { status: 200, headers: {}, text: JSON.stringify(records), json: records, durationMs: 0 },
      };
    };
    return { reader, reads: () => reads };
  }

  it('reads a window that moved between its pages again, all pages at once, and counts it whole', async () => {
    const moving = window(250, 1);
    const listing = await readListing(moving.reader, 1, 100, 50, 1);
    // Read page by page, the record that left the tail while new ones arrived at the head would be missing.
    expect(listing.complete).toBe(true);
    expect(listing.records).toHaveLength(250);
    expect(new Set(listing.records.map((r) => r.id)).size).toBe(250);
  });

  it('reads a listing behind two replicas in turn, one a record behind, to its end: a page whose repeats are dropped is not its last', async () => {
    let reads = 0;
    // A record arrives with every read; replica B is a record behind A; the newest first, each request to the next replica.
    const reader = async (page: number, size: number): Promise<Exchange> => {
      reads += 1;
      const held = 250 + reads - (reads % 2);
      const records = [];
      for (let i = (page - 1) * size; i < Math.min(held, page * size); i += 1) records.push({ id: `r${held - 1 - i}` });
      return {
        ...pageOf(0, page, size),
        response: { status: 200, headers: {}, text: JSON.stringify(records), json: records, durationMs: 0 },
      };
    };
    const listing = await readListing(reader, 1, 100, 50, 1);
    expect(listing.complete).toBe(true);
    expect(listing.records.length).toBeGreaterThanOrEqual(250);
    expect(new Set(listing.records.map((r) => r.id)).size).toBe(listing.records.length);
    expect(listing.records.at(-1)?.id).toBe('r0');
  });

  /**
   * Two replicas a record apart, still: page 1 and every read of the head from replica B (250 records), other
   * pages from A (251); each answer sends its replica's count. `overlap`: one still server whose every page
   * repeats the last record of the page before.
   */
  function replicasApart(counted: boolean, overlap = false) {
    return Object.assign(
      async (page: number, size: number): Promise<Exchange> => {
        const held = overlap || page === 1 ? 250 : 251;
        const from = Math.max(0, (page - 1) * size - (overlap && page > 1 ? 1 : 0));
        const records = [];
        for (let i = from; i < Math.min(held, from + size); i += 1) records.push({ id: `r${held - 1 - i}` });
        const headers: Record<string, string> = counted ? { 'x-total-count': String(held) } : {};
        return { ...pageOf(0, page, size), response: { status: 200, headers, text: '', json: records, durationMs: 0 } };
      },
      counted ? { count: (e: Exchange) => Number(e.response!.headers['x-total-count']) } : {},
    );
  }

  it('reads a listing from replicas apart to its end when the counts they send show the repeat at a page head is the listing grown', async () => {
    const listing = await readListing(replicasApart(true), 1, 100, 50, 1);
    expect(listing.problem).toBeUndefined();
    expect(listing.complete).toBe(true);
    expect(new Set(listing.records.map((r) => r.id)).size).toBe(listing.records.length);
    // Without counts, a read of the head from the replica behind cannot tell the repeat from an overlap.
    expect((await readListing(replicasApart(false), 1, 100, 50, 1)).repeated?.page).toBe(2);
  });

  /**
   * A reader of a listing whose answer to each request holds `held(page)` records, the newest first (`r(held-1)` ..
   * `r0`), each with its count: replicas apart when `held` differs by request.
   */
  const countedReader = (held: (page: number) => number) =>
    Object.assign(
      async (page: number, size: number): Promise<Exchange> => {
        const holding = held(page);
        const records = [];
        for (let i = (page - 1) * size; i < Math.min(holding, page * size); i += 1) records.push({ id: `r${holding - 1 - i}` });
        const headers = { 'x-total-count': String(holding) };
        return { ...pageOf(0, page, size), response: { status: 200, headers, text: '', json: records, durationMs: 0 } };
      },
      { count: (e: Exchange) => Number(e.response!.headers['x-total-count']) },
    );
  /** The numbers of a listing's records' ids, in the order read. */
  const numbers = (listing: { readonly records: readonly Record<string, unknown>[] }) =>
    listing.records.map((r) => Number(String(r.id).slice(1)));

  it('finds the records a read from replicas apart left out at its tail: its last page from the replica behind', async () => {
    // Odd pages from A (301 records), even ones from B (300): page 4 of B ends the read before A's last record.
    const listing = await readListing(
      countedReader((page) => (page % 2 === 1 ? 301 : 300)),
      1,
      100,
      50,
      1,
    );
    expect(listing.complete).toBe(true);
    // The oldest record is read; only the one page 2 skipped at its seam is left out (read across seams mends it).
    expect(listing.records.at(-1)?.id).toBe('r0');
    expect(listing.records).toHaveLength(300);
    expect(new Set(listing.records.map((r) => r.id)).size).toBe(300);
    // In the listing's order (newest first): what was found is placed as one replica's answer shows it.
    expect(numbers(listing)).toEqual([...numbers(listing)].sort((a, b) => b - a));
  });

  it('finds the oldest record left out when the page ending on the oldest read comes from the replica ahead', async () => {
    // Pages 1-3 from A (301 records), page 4 from B (300, empty there); later pages of ten alike, by page number:
    // the page ending on the oldest record read comes from A, the page after it from B, each time it is asked.
    const listing = await readListing(
      countedReader((page) => (page <= 3 || page % 10 === 0 ? 301 : 300)),
      1,
      100,
      50,
      1,
    );
    expect(listing.complete).toBe(true);
    expect(listing.records.at(-1)?.id).toBe('r0');
    expect(numbers(listing)).toEqual([...numbers(listing)].sort((a, b) => b - a));
  });

  it('places the records it finds at the tail in the order one answer shows them, whichever replicas answer', async () => {
    // A three records ahead of B, requests taking turns, and a record arriving every seventh request: records
    // found at the tail by offsets answered by either replica came out of order.
    let n = 2;
    const reader = countedReader(() => {
      n += 1;
      return 300 + Math.floor(n / 7) + (n % 2 === 1 ? 3 : 0);
    });
    const listing = await readListing(reader, 1, 100, 50, 1);
    expect(numbers(listing).at(-1)).toBe(0);
    expect(numbers(listing)).toEqual([...numbers(listing)].sort((a, b) => b - a));
  });

  it('still tells a page that repeats the last record of the page before, its count the same', async () => {
    const listing = await readListing(replicasApart(true, true), 1, 100, 50, 1);
    expect(listing.complete).toBe(false);
    expect(listing.repeated).toEqual({ id: 'r150', page: 2 });
  });

  it('reads a still listing once', async () => {
    const still = window(250, Number.POSITIVE_INFINITY);
    const listing = await readListing(still.reader, 1, 100, 50, 1);
    expect(listing.records).toHaveLength(250);
    expect(still.reads()).toBe(3);
  });
});
