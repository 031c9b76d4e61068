import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/create-app.ts';
import { KEY, defaultApp, get, spec } from '../helpers.ts';

const small = { seed: 2, counts: { alerts: 5, sensors: 5 } };

describe('API key auth', () => {
  const app = defaultApp();

  it.each([
    ['missing', {}],
    ['empty', { 'x-api-key': '' }],
    ['wrong', { 'x-api-key': 'not-the-key' }],
    ['a prefix of the key', { 'x-api-key': KEY.slice(0, -1) }],
    ['the key with a suffix', { 'x-api-key': `${KEY}x` }],
  ])('answers 401 problem+json to a %s key, without records or the key', async (_, headers) => {
    for (const path of ['/alert', '/sensor?page=2']) {
      const response = await get(app, path, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ status: 401, type: 'urn:tempmon:problem:unauthorized' });
      expect(text).not.toMatch(/"id"|created_at/);
      if ('x-api-key' in headers && headers['x-api-key']) expect(text).not.toContain(headers['x-api-key']);
    }
  });

  it('checks the key before the query', async () => {
    expect((await get(app, '/alert?page=0', {})).status).toBe(401);
  });

  it('accepts the key header in any letter case, as HTTP headers are', async () => {
    expect((await get(app, '/alert', { 'X-API-KEY': KEY })).status).toBe(200);
  });

  it('accepts every configured key and only those', async () => {
    const multi = createApp({ spec, apiKeys: ['alpha', 'beta-key'], dataset: small });
    expect((await get(multi, '/alert', { 'x-api-key': 'alpha' })).status).toBe(200);
    expect((await get(multi, '/alert', { 'x-api-key': 'beta-key' })).status).toBe(200);
    expect((await get(multi, '/alert', { 'x-api-key': KEY })).status).toBe(401);
  });

  it('refuses an empty configured key at start-up', () => {
    expect(() => createApp({ spec, apiKeys: [''], dataset: small })).toThrow(/non-empty/);
    expect(() => createApp({ spec, apiKeys: [], dataset: small })).toThrow(/non-empty/);
  });

  it('takes the header name from the spec security scheme', async () => {
    const document = structuredClone(spec.document);
    (document.components!.securitySchemes!.ApiKey as { name: string }).name = 'x-tenant-token';
    const renamed = createApp({ spec: { ...spec, document }, dataset: small });
    expect((await get(renamed, '/alert', { 'x-api-key': KEY })).status).toBe(401);
    expect((await get(renamed, '/alert', { 'x-tenant-token': KEY })).status).toBe(200);
  });
});
