import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { parsePrefer, preferencesOf } from '../../src/http/prefer.ts';

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

describe('preferencesOf', () => {
  it("parses a request's Prefer header once, for every middleware and route that reads it", async () => {
    const seen: ReadonlyMap<string, string>[] = [];
    const app = new Hono();
    app.use((c, next) => {
      seen.push(preferencesOf(c));
      return next();
    });
    app.get('/', (c) => {
      seen.push(preferencesOf(c));
      return c.json(Object.fromEntries(preferencesOf(c)));
    });
    const response = await app.request('/', { headers: { Prefer: 'code=429, delay=5' } });
    expect(await response.json()).toEqual({ code: '429', delay: '5' });
    expect(seen[1]).toBe(seen[0]);
    expect((await app.request('/')).status).toBe(200);
    expect(seen[2]?.size).toBe(0);
  });
});
