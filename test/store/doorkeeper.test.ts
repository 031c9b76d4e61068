import { describe, expect, it } from 'vitest';
import { doorkeeper } from '../../src/store/doorkeeper.ts';

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
