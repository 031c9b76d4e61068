import { describe, expect, it } from 'vitest';
import { parsePrefer } from '../../src/server/prefer.ts';

describe('parsePrefer (RFC 7240)', () => {
  it('reads tokens, values, quoted values and drops parameters', () => {
    const prefs = parsePrefer('code=429, Example="empty"; x=1, respond-async, wait=10');
    expect([...prefs]).toEqual([
      ['code', '429'],
      ['example', 'empty'],
      ['respond-async', 'true'],
      ['wait', '10'],
    ]);
  });

  it('keeps the first of repeated preferences and skips malformed ones', () => {
    expect([...parsePrefer('code=500, code=401, =x, "bad", delay = 20')]).toEqual([
      ['code', '500'],
      ['delay', '20'],
    ]);
    expect(parsePrefer(undefined).size).toBe(0);
    expect(parsePrefer('').size).toBe(0);
  });
});
