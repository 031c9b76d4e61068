// The fast path must be invisible: the same status, headers and bytes as the full app.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/server/create-app.ts';
import { nodeListener } from '../../src/server/node-listener.ts';
import { KEY, spec } from '../helpers.ts';

const mock = createMock({ spec, dataset: { seed: 2, counts: { alerts: 80, sensors: 5 } } });
let base = '';
let fastAnswers = 0;
let server: Server;

beforeAll(async () => {
  const listener = nodeListener(mock);
  server = createServer((request, response) => {
    const before = response.headersSent;
    listener(request, response);
    if (!before && response.writableEnded) fastAnswers += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

const get = async (path: string, headers: Record<string, string> = { 'x-api-key': KEY }, method = 'GET') => {
  const response = await fetch(`${base}${path}`, { headers, method });
  const headerMap = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  return { status: response.status, headers: headerMap, body: await response.text() };
};

describe('fast path for cached answers', () => {
  it('answers plain requests with the same status, headers and bytes as the full app', async () => {
    for (const path of ['/alert?page=2&pageSize=7', '/alert?search=ph28', '/sensor?page=99', '/alert?pageSize=3&unknown=1']) {
      const before = fastAnswers;
      const fast = await get(path);
      // A tag that matches nothing sends the request through the full app, which answers 200 too.
      const slow = await get(path, { 'x-api-key': KEY, 'If-None-Match': '"nothing"' });
      expect(fastAnswers - before, path).toBe(1);
      expect(fast, path).toEqual(slow);
    }
    const head = await get('/alert?page=2&pageSize=7', { 'x-api-key': KEY }, 'HEAD');
    expect(head).toEqual({ ...(await get('/alert?page=2&pageSize=7')), body: '' });
  });

  it('leaves invalid queries to the app, which answers 400 problem+json', async () => {
    const before = fastAnswers;
    const response = await get('/alert?page=0');
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(fastAnswers).toBe(before);
  });

  it('never answers for a missing or wrong key, Prefer or If-None-Match', async () => {
    await get('/sensor');
    const before = fastAnswers;
    expect((await get('/sensor', {})).status).toBe(401);
    expect((await get('/sensor', { 'x-api-key': 'wrong' })).status).toBe(401);
    expect((await get('/sensor', { 'x-api-key': KEY, Prefer: 'example=empty' })).body).toBe('[]');
    const etag = (await fetch(`${base}/sensor`, { headers: { 'x-api-key': KEY } })).headers.get('etag')!;
    expect((await get('/sensor', { 'x-api-key': KEY, 'If-None-Match': etag })).status).toBe(304);
    expect(fastAnswers - before).toBe(1); // only the plain request that read the ETag
  });

  it('leaves ?__code= to the app, with or without a key', async () => {
    await get('/alert');
    const before = fastAnswers;
    for (const headers of [{ 'x-api-key': KEY }, {}] as Record<string, string>[]) {
      const response = await get('/alert?__code=503', headers);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
    }
    expect((await get('/sensor?page=2&__code=500')).status).toBe(500);
    expect(fastAnswers).toBe(before);
  });

  it('is off when conditions are simulated', () => {
    const simulated = createMock({ spec, dataset: { seed: 2, counts: { alerts: 1, sensors: 1 } }, scenarios: { errorRate: 0.5 } });
    expect(simulated.fastPath({ method: 'GET', url: '/alert', headers: { 'x-api-key': KEY } } as never, {} as never)).toBe(false);
  });
});
