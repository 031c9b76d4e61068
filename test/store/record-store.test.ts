import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../src/spec/records.ts';
import { createRecordStore, type PageResult, searchCache } from '../../src/store/record-store.ts';
import { LAYOUT_SAMPLE } from '../../src/store/search-index.ts';

describe('searchCache', () => {
  it('searches a term again until it was searched twice, then keeps its matches', () => {
    const searched: string[] = [];
    const search = searchCache((term) => {
      searched.push(term);
      return Uint32Array.of(term.length);
    });
    expect([...search('cold')]).toEqual([4]);
    expect([...search('cold')]).toEqual([4]);
    expect([...search('cold')]).toEqual([4]);
    expect([...search('cold')]).toEqual([4]);
    // Twice searched (the second time kept it), then answered from memory.
    expect(searched).toEqual(['cold', 'cold']);
  });

  it('lets a stream of terms searched once evict nothing kept', () => {
    const searched: string[] = [];
    const search = searchCache((term) => {
      searched.push(term);
      return new Uint32Array(0);
    });
    search('paged');
    search('paged');
    // Far more one-off terms than the cache holds (64): none of them takes a place.
    for (let i = 0; i < 200; i += 1) search(`once ${i}`);
    searched.length = 0;
    search('paged');
    expect(searched).toEqual([]);
  });
});

/** Records whose `code` reads are counted: the index reads each record's fields when it adds it. */
function countedRecords(count: number): { records: ApiRecord[]; reads: () => number } {
  let reads = 0;
  const records = Array.from({ length: count }, (_, i) => {
    const record: ApiRecord = { id: `record-${i}` };
    Object.defineProperty(record, 'code', {
      enumerable: true,
      get: () => {
        reads += 1;
        return `CODE-${i}`;
      },
    });
    return record;
  });
  return { records, reads: () => reads };
}

/** Lets the event loop turn until `done`, as a server between requests. */
// No bound in turns: work queued earlier (other stores) goes first, and how many turns it takes depends on
// the machine's load; a store that never finishes shows as the test's timeout.
async function turns(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

describe('createRecordStore', () => {
  it('indexes its records between requests from the start, so the first search reads none', async () => {
    const { records, reads } = countedRecords(3_000);
    const store = createRecordStore(records);
    // The layout reads its sample, then every record is added once. A turn that reads nothing is no sign
    // of the end: a slice delayed past its deadline (a collection, a busy machine) adds none.
    const everyRead = Math.min(3_000, LAYOUT_SAMPLE) + 3_000;
    await turns(() => reads() >= everyRead);
    expect(reads()).toBe(everyRead);
    const found = store.page('code-1234', 0, 10) as PageResult;
    expect(found.records.map((r) => r.id)).toEqual(['record-1234']);
    expect(reads()).toBe(everyRead);
  });

  it('finishes the index on a search that comes before the background build has', () => {
    const { records, reads } = countedRecords(3_000);
    const store = createRecordStore(records);
    expect(reads()).toBe(0);
    const found = store.page('code-2999', 0, 10) as PageResult;
    expect(found).toMatchObject({ total: 1 });
    expect(found.records.map((r) => r.id)).toEqual(['record-2999']);
    expect(reads()).toBeGreaterThanOrEqual(3_000);
  });
});
