import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { KEY, defaultApp, get, spec, validator } from '../helpers.ts';

const app = defaultApp();

describe('routes and protocol', () => {
  it('answers HEAD like GET, without a body', async () => {
    const head = await app.request('/alert?page=2', { method: 'HEAD', headers: { 'x-api-key': KEY } });
    const getResponse = await get(app, '/alert?page=2');
    expect(head.status).toBe(200);
    expect(head.headers.get('x-total-count')).toBe(getResponse.headers.get('x-total-count'));
    expect(head.headers.get('link')).toBe(getResponse.headers.get('link'));
    expect(await head.text()).toBe('');
  });

  it('answers an unknown path with 404 problem+json', async () => {
    for (const path of ['/alerts', '/alert/123', '/%zz']) {
      const response = await get(app, path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const body = await response.json();
      expect(body).toMatchObject({ status: 404, title: 'Not Found' });
      expect(validator.validate('Problem', body)).toEqual([]);
    }
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('answers %s on a listing with 405 and Allow', async (method) => {
    const response = await app.request('/sensor', { method, headers: { 'x-api-key': KEY }, body: method === 'DELETE' ? null : '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await response.json()).toMatchObject({ status: 405, detail: expect.stringContaining(method) });
  });

  it("keeps to routes Hono's RegExpRouter takes (else every request goes through its slower TrieRouter)", async () => {
    const fresh = defaultApp();
    await get(fresh, '/alert');
    expect(fresh.router.name).toBe('SmartRouter + RegExpRouter');
  });

  it('sends application/json bodies on success', async () => {
    expect((await get(app, '/sensor')).headers.get('content-type')).toMatch(/^application\/json\b/);
  });
});

describe('CORS', () => {
  it('answers a browser preflight allowing the key header from any origin', async () => {
    const response = await app.request('/alert', {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('exposes X-Total-Count and Link, on errors too', async () => {
    for (const headers of [{ 'x-api-key': KEY, Origin: 'https://app.example' }, { Origin: 'https://app.example' }] as Record<
      string,
      string
    >[]) {
      const response = await get(app, '/alert', headers);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toMatch(/X-Total-Count.*Link/);
    }
  });

  it('sends the CORS headers once on every kind of listing answer: plain, 304, preferred', async () => {
    const plain = await get(app, '/alert?page=3', { 'x-api-key': KEY });
    const etag = plain.headers.get('etag')!;
    const answers = [
      plain,
      await get(app, '/alert?page=3', { 'x-api-key': KEY, 'If-None-Match': etag }),
      await get(app, '/alert?page=3', { 'x-api-key': KEY, Prefer: 'example=empty' }),
      await get(app, '/alert?page=3', { 'x-api-key': KEY, Prefer: 'delay=1', 'If-None-Match': etag }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 304, 200, 304]);
    for (const response of answers) {
      // Set twice, a header would read "*, *".
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toBe(
        'X-Total-Count,Link,ETag,Preference-Applied,Tempmon-Moment,Retry-After',
      );
    }
    expect(answers[2]!.headers.get('preference-applied')).toBe('example=empty');
    expect(answers[3]!.headers.get('preference-applied')).toBe('delay=1');
  });
});

describe('the spec, served', () => {
  it('serves /openapi.json and /openapi.yaml without a key', async () => {
    const json = await app.request('/openapi.json');
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(spec.document);
    const yaml = await app.request('/openapi.yaml');
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    const text = await yaml.text();
    expect(text).toBe(spec.source);
    expect(parse(text)).toEqual(spec.document);
  });
});
