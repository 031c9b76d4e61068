// createApp() as a plain fetch handler, with no port: directly, and behind MSW as frontend unit tests use it.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/create-app.ts';
import { KEY, spec } from '../helpers.ts';

const app = createApp({ spec, dataset: { seed: 7, counts: { alerts: 50, sensors: 10 } } });

describe('createApp() in-process', () => {
  it('is a fetch handler: Request in, Response out', async () => {
    const response = await app.fetch(new Request('http://anything.local/sensor?pageSize=3', { headers: { 'x-api-key': KEY } }));
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(3);
  });
});

describe('createApp() behind MSW', () => {
  const API = 'https://api.tempmon.example';
  const server = setupServer(http.all(`${API}/*`, ({ request }) => app.fetch(request)));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it("answers a frontend's plain fetch calls with the mock's data", async () => {
    const response = await fetch(`${API}/alert?page=2&pageSize=10`, { headers: { 'x-api-key': KEY } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('50');
    const direct = await app.request('/alert?page=2&pageSize=10', { headers: { 'x-api-key': KEY } });
    expect(await response.json()).toEqual(await direct.json());
  });

  it('passes error states through, e.g. Prefer: code=503', async () => {
    const response = await fetch(`${API}/sensor`, { headers: { 'x-api-key': KEY, Prefer: 'code=503' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('link')).toBeNull();
    expect(response.headers.get('retry-after')).toBe('1');
  });
});
