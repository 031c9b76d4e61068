// The response cache must be invisible: a replay sends the app's own status, headers and bytes, and only
// for a request that would get them again. Over real HTTP through the serve listener.
import { Agent, createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { createMock, type Mock } from '../../src/server/create-app.ts';
import { createDatasetStore } from '../../src/store/dataset-store.ts';
import { nodeListener } from '../../src/server/node-listener.ts';
import { KEY, spec } from '../helpers.ts';

const OTHER_KEY = 'second-key-for-tests';
let replays = 0;
let server: Server;
let base = '';

function counted(mock: Mock): Mock {
  return {
    ...mock,
    replay: (request, response) => {
      const done = mock.replay(request, response);
      if (done) replays += 1;
      return done;
    },
  };
}

beforeAll(async () => {
  const mock = createMock({ spec, apiKeys: [KEY, OTHER_KEY], dataset: { seed: 2, counts: { alerts: 80, sensors: 5 } } });
  server = createServer(nodeListener(counted(mock)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

const get = async (path: string, headers: Record<string, string> = { 'x-api-key': KEY }, method = 'GET') => {
  const response = await fetch(`${base}${path}`, { headers, method });
  const headerMap = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  return { status: response.status, headers: headerMap, body: await response.text() };
};

/** How many of `run`'s requests were replays. */
async function replaysDuring(run: () => Promise<unknown>): Promise<number> {
  const before = replays;
  await run();
  return replays - before;
}

describe('the response cache of the node:http listener', () => {
  it("replays the app's own status, headers and bytes for the same request, stored the second time it comes", async () => {
    for (const path of ['/alert?page=2&pageSize=7', '/alert?search=ph28', '/sensor?page=99', '/alert?pageSize=3&unknown=1']) {
      let first: Awaited<ReturnType<typeof get>> | undefined;
      expect(await replaysDuring(async () => (first = await get(path))), `${path} first`).toBe(0);
      expect(await replaysDuring(() => get(path)), `${path} second: stored, not replayed`).toBe(0);
      let again: Awaited<ReturnType<typeof get>> | undefined;
      expect(await replaysDuring(async () => (again = await get(path))), `${path} third`).toBe(1);
      expect(again, path).toEqual(first);
    }
    let head: Awaited<ReturnType<typeof get>> | undefined;
    expect(await replaysDuring(async () => (head = await get('/alert?page=2&pageSize=7', { 'x-api-key': KEY }, 'HEAD')))).toBe(1);
    expect(head).toEqual({ ...(await get('/alert?page=2&pageSize=7')), body: '' });
  });

  it('replays a 304 for the same If-None-Match, and never a 200 in its place', async () => {
    const etag = (await fetch(`${base}/sensor?page=1`, { headers: { 'x-api-key': KEY } })).headers.get('etag')!;
    const conditional = { 'x-api-key': KEY, 'If-None-Match': etag };
    expect((await get('/sensor?page=1', conditional)).status).toBe(304);
    expect((await get('/sensor?page=1', conditional)).status).toBe(304);
    let again: Awaited<ReturnType<typeof get>> | undefined;
    expect(await replaysDuring(async () => (again = await get('/sensor?page=1', conditional)))).toBe(1);
    expect(again).toMatchObject({ status: 304, body: '' });
    expect((await get('/sensor?page=1', { 'x-api-key': KEY, 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('never replays for a missing or wrong key, a forced state or a preference, and stores none of them', async () => {
    await get('/sensor');
    await get('/sensor');
    expect(
      await replaysDuring(async () => {
        for (let round = 0; round < 3; round += 1) {
          expect((await get('/sensor', {})).status).toBe(401);
          expect((await get('/sensor', { 'x-api-key': 'wrong' })).status).toBe(401);
          expect((await get('/sensor', { 'x-api-key': KEY, Prefer: 'example=empty' })).body).toBe('[]');
          expect((await get('/sensor', { 'x-api-key': KEY, Prefer: 'code=500' })).status).toBe(500);
          expect((await get('/sensor?__code=503', { 'x-api-key': KEY })).status).toBe(503);
          expect((await get('/sensor?page=0')).status).toBe(400);
        }
      }),
    ).toBe(0);
  });

  it('keeps the answers of two keys apart, and a Host apart (Link is absolute)', async () => {
    await get('/alert?page=3', { 'x-api-key': KEY });
    await get('/alert?page=3', { 'x-api-key': KEY });
    expect(await replaysDuring(() => get('/alert?page=3', { 'x-api-key': OTHER_KEY }))).toBe(0);
    expect(await replaysDuring(() => get('/alert?page=3', { 'x-api-key': OTHER_KEY }))).toBe(0);
    expect(await replaysDuring(() => get('/alert?page=3', { 'x-api-key': OTHER_KEY }))).toBe(1);
    const viaLocalhost = await fetch(`${base.replace('127.0.0.1', 'localhost')}/alert?page=3`, { headers: { 'x-api-key': KEY } });
    expect(viaLocalhost.headers.get('link')).toContain('http://localhost:');
  });

  it('answers each request on one kept-alive connection by its own key, If-None-Match, Host, method and data', async () => {
    // One socket for every request, so each is compared with the connection's last one.
    const store = createDatasetStore(generateDataset(spec.document, { seed: 5, counts: { alerts: 30, sensors: 2 } }), spec.document);
    const mock = createMock({ spec, apiKeys: [KEY, OTHER_KEY], store });
    const own = createServer(nodeListener(counted(mock)));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const { port } = own.address() as { port: number };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const ask = (headers: Record<string, string>, method = 'GET') =>
      new Promise<{ status: number; etag: string; link: string; body: string }>((resolve, reject) => {
        const options = { host: '127.0.0.1', port, path: '/alert?page=2&pageSize=5', method, headers, agent };
        const sent = request(options, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          response.on('end', () => {
            const { etag, link } = response.headers;
            resolve({ status: response.statusCode ?? 0, etag: String(etag), link: String(link), body });
          });
        });
        sent.on('socket', (socket) => sockets.add(socket));
        sent.on('error', reject).end();
      });
    try {
      const keyed = { 'x-api-key': KEY };
      const first = await ask(keyed);
      await ask(keyed);
      expect(await replaysDuring(() => ask(keyed))).toBe(1);
      expect(first.link).toContain('//127.0.0.1:');
      expect(await ask({ 'x-api-key': 'wrong' })).toMatchObject({ status: 401 });
      expect(await ask({})).toMatchObject({ status: 401 });
      expect(await replaysDuring(async () => expect(await ask(keyed)).toEqual(first))).toBe(1);
      expect(await ask({ ...keyed, 'if-none-match': first.etag })).toMatchObject({ status: 304, body: '' });
      expect((await ask({ ...keyed, host: `localhost:${port}` })).link).toContain('//localhost:');
      expect(await ask(keyed, 'HEAD')).toMatchObject({ status: 200, body: '' });
      expect(await ask(keyed)).toEqual(first);
      // New data on the same connection: new bytes, never the last answer.
      store.replace(generateDataset(spec.document, { seed: 6, counts: { alerts: 30, sensors: 2 } }));
      const after = await ask(keyed);
      expect(after.status).toBe(200);
      expect(after.body).not.toBe(first.body);
      expect(after.etag).not.toBe(first.etag);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
      own.close();
    }
  });

  it('is off when conditions are simulated', () => {
    const simulated = createMock({ spec, dataset: { seed: 2, counts: { alerts: 1, sensors: 1 } }, scenarios: { errorRate: 0.5 } });
    expect(simulated.replay({ method: 'GET', url: '/alert', headers: { 'x-api-key': KEY } } as never, {} as never)).toBe(false);
  });
});
