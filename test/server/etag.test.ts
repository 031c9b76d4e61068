import { describe, expect, it } from 'vitest';
import { KEY, defaultApp, get } from '../helpers.ts';

describe('ETag and If-None-Match', () => {
  const app = defaultApp();

  it('answers 304 without a body when the listing has not changed', async () => {
    const first = await get(app, '/alert?page=2');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    const again = await get(app, '/alert?page=2', { 'x-api-key': KEY, 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-total-count')).toBe('300');
    expect((await get(app, '/alert?page=2', { 'x-api-key': KEY, 'If-None-Match': `W/${etag}, "other"` })).status).toBe(304);
  });

  it('gives different pages different tags, and a stale tag the full answer', async () => {
    const one = (await get(app, '/alert?page=1')).headers.get('etag');
    const two = (await get(app, '/alert?page=2')).headers.get('etag');
    expect(one).not.toBe(two);
    const response = await get(app, '/alert?page=1', { 'x-api-key': KEY, 'If-None-Match': two! });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(20);
  });

  it('never lets a 304 skip auth', async () => {
    const etag = (await get(app, '/sensor')).headers.get('etag')!;
    expect((await get(app, '/sensor', { 'If-None-Match': etag })).status).toBe(401);
  });
});
