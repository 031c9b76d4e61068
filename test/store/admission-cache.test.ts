import { describe, expect, it } from 'vitest';
import { AdmissionCache, doorkeeper } from '../../src/store/admission-cache.ts';

describe('doorkeeper', () => {
  it('says a key was seen from its second time on', () => {
    const seen = doorkeeper(3);
    expect(seen('a')).toBe(false);
    expect(seen('a')).toBe(true);
    expect(seen('a')).toBe(true);
    expect(seen('b')).toBe(false);
  });

  it('remembers a key across `limit` other keys, and forgets it by twice that many', () => {
    const limit = 100;
    const seen = doorkeeper(limit);
    seen('kept');
    for (let i = 0; i < limit; i += 1) seen(`other ${i}`);
    expect(seen('kept')).toBe(true);
    const gone = doorkeeper(limit);
    gone('dropped');
    for (let i = 0; i < 2 * limit; i += 1) gone(`other ${i}`);
    expect(gone('dropped')).toBe(false);
  });
});

describe('AdmissionCache', () => {
  it('keeps a value from its key second sight on, and never one offered once', () => {
    const cache = new AdmissionCache<string>({ max: 4 });
    cache.offer('a', 'first');
    expect(cache.get('a')).toBeUndefined();
    cache.offer('a', 'second');
    expect(cache.get('a')).toBe('second');
    // admits() notes a sight as offer() does; set() then keeps a value that came later.
    expect(cache.admits('b')).toBe(false);
    expect(cache.admits('b')).toBe(true);
    cache.set('b', 'later');
    expect(cache.get('b')).toBe('later');
  });

  it('drops the least recently used first, and keeps within its total size', () => {
    const cache = new AdmissionCache<string>({ max: 2 });
    for (const key of ['a', 'b', 'a', 'b']) cache.offer(key, key);
    cache.get('a');
    for (const key of ['c', 'c']) cache.offer(key, key);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['a', undefined, 'c']);
    const sized = new AdmissionCache<string>({ max: 100, maxSize: 10, sizeOf: (value) => value.length });
    for (const key of ['x', 'x', 'y', 'y']) sized.offer(key, '123456');
    expect([sized.get('x'), sized.get('y')]).toEqual([undefined, '123456']);
  });
});
