import { describe, expect, it } from 'vitest';
import { searchCache } from '../../src/server/record-store.ts';

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
