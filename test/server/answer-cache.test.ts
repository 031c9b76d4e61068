import { describe, expect, it } from 'vitest';
import { type Answer, AnswerCache } from '../../src/server/answer-cache.ts';

const answer = (body: string): Answer => ({ body, total: 1, link: undefined, etag: `"${body}"` });

describe('AnswerCache', () => {
  it('keeps an answer offered a second time, not one offered once', () => {
    const cache = new AnswerCache();
    cache.offer('a', answer('first'));
    expect(cache.get('a')).toBeUndefined();
    cache.offer('a', answer('second'));
    expect(cache.get('a')?.body).toBe('second');
  });

  it('lets answers offered once evict nothing kept', () => {
    const cache = new AnswerCache();
    cache.offer('kept', answer('kept'));
    cache.offer('kept', answer('kept'));
    // More one-off answers than the cache holds (512).
    for (let i = 0; i < 1_000; i += 1) cache.offer(`once ${i}`, answer(String(i)));
    expect(cache.get('kept')?.body).toBe('kept');
    expect(cache.get('once 999')).toBeUndefined();
  });
});
