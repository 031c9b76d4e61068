import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataFile } from '../../src/fixtures/load-data-file.ts';
import { createProxy } from '../../src/proxy/create-proxy.ts';
import { createApp } from '../../src/server/create-app.ts';
import { FAULTS, brokenMock } from '../contract/targets/broken-mocks.ts';
import { KEY, spec, validator } from '../helpers.ts';

const mock = createApp({ spec, dataset: { seed: 6, counts: { alerts: 60, sensors: 12 } } });
const upstream = (request: Request) => mock.fetch(request);
const headers = { 'x-api-key': KEY };

describe('tempmon proxy', () => {
  it('passes a conformant target through byte for byte, with no violations', async () => {
    const lines: string[] = [];
    const proxy = await createProxy({ target: 'http://upstream.test', spec, fetch: upstream, log: (l) => lines.push(l) });
    for (const path of ['/alert?page=2&pageSize=7', '/sensor?search=rotterdam', '/alert?page=0']) {
      const direct = await mock.request(path, { headers });
      const through = await proxy.app.request(path, { headers });
      expect(through.status).toBe(direct.status);
      expect(await through.text()).toBe(await direct.text());
      expect(through.headers.get('x-total-count')).toBe(direct.headers.get('x-total-count'));
    }
    // page=0 is the client's mistake: noted, not blamed on the target.
    expect(proxy.violations().violations.map((v) => v.check)).toEqual(['request_query_conformance']);
    expect(lines.join('\n')).not.toContain(KEY);
    // Its routes suit Hono's fast router, as the mock's do.
    expect(proxy.app.router.name).toBe('SmartRouter + RegExpRouter');
  });

  it('reports the violations of a broken target with their JSON paths, and never logs the key', async () => {
    const lines: string[] = [];
    const broken = brokenMock(mock, FAULTS.find((f) => f.name === 'bad uuid')!);
    const proxy = await createProxy({ target: 'http://upstream.test', spec, fetch: broken, log: (l) => lines.push(l) });
    const response = await proxy.app.request('/alert?pageSize=3', { headers });
    expect(response.status).toBe(200);
    const listed = (await (await proxy.app.request('/__tempmon/violations')).json()) as {
      count: number;
      violations: { message: string; check: string }[];
    };
    expect(listed.count).toBe(3);
    expect(listed.violations.map((v) => v.message)).toEqual([
      '$[0].id must match format "uuid"',
      '$[1].id must match format "uuid"',
      '$[2].id must match format "uuid"',
    ]);
    expect(lines[0]).toMatch(/^violation listAlerts 200 \$\[0\]\.id must match format "uuid" \(response_schema_conformance, error\)$/);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('with --errors, answers 502 problem+json listing the violations', async () => {
    const broken = brokenMock(mock, FAULTS.find((f) => f.name === 'wrong content type')!);
    const proxy = await createProxy({ target: 'http://upstream.test', spec, fetch: broken, errors: true });
    const response = await proxy.app.request('/sensor', { headers });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const body = await response.json();
    expect(validator.validate('Problem', body)).toEqual([]);
    expect(body.violations[0]).toMatchObject({ check: 'content_type_conformance', severity: 'error' });
  });

  it('answers 502 when the target is down and 504 when it is too slow', async () => {
    const lines: string[] = [];
    // A target that takes the connection and drops it at once: down, over real TCP, on a port of our own (a port
    // merely hoped to be closed may be filtered instead, and the request then waits for the timeout).
    const dropping = createServer((socket) => socket.destroy());
    dropping.listen(0, '127.0.0.1');
    await once(dropping, 'listening');
    const { port } = dropping.address() as AddressInfo;
    const down = await createProxy({ target: `http://127.0.0.1:${port}`, spec, log: (l) => lines.push(l) });
    const refused = await down.app.request('/alert', { headers });
    dropping.close();
    expect(refused.status).toBe(502);
    expect(await refused.json()).toMatchObject({ status: 502, title: 'Bad Gateway' });
    const never = (request: Request) =>
      new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const slow = await createProxy({ target: 'http://upstream.test', spec, fetch: never, timeoutMs: 50, log: (l) => lines.push(l) });
    const timedOut = await slow.app.request('/sensor', { headers });
    expect(timedOut.status).toBe(504);
    expect(lines.some((l) => l.startsWith('upstream failure listAlerts'))).toBe(true);
    expect(lines.some((l) => l.startsWith('upstream timeout listSensors'))).toBe(true);
  });

  it('records what it sees into a data file that serve --data accepts, extending it atomically', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tempmon-record-')), 'recorded.json');
    const first = await createProxy({ target: 'http://upstream.test', spec, fetch: upstream, record: file });
    await first.app.request('/alert?pageSize=5', { headers });
    await first.app.request('/alert?pageSize=5', { headers }); // duplicates are stored once
    await first.app.request('/sensor?pageSize=2', { headers });
    first.flush();
    const second = await createProxy({ target: 'http://upstream.test', spec, fetch: upstream, record: file });
    await second.app.request('/alert?page=2&pageSize=5', { headers });
    second.flush();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    const data = loadDataFile(file, spec.document, validator);
    expect(data.alerts).toHaveLength(10);
    expect(data.sensors).toHaveLength(2);
    const served = createApp({ spec, data });
    const page = await (await served.request('/alert?pageSize=10', { headers })).json();
    const original = await (await mock.request('/alert?pageSize=10', { headers })).json();
    expect(page).toEqual(original);
  });
});

describe('the proxy over real HTTP', () => {
  it('answers through its one pipeline: listings and invalid queries, with CORS', async () => {
    const { createServer } = await import('node:http');
    const { getRequestListener } = await import('@hono/node-server');
    const proxy = await createProxy({ target: 'http://upstream.test', spec, fetch: upstream });
    const server = createServer(getRequestListener(proxy.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const path of ['/alert?page=2&pageSize=3', '/sensor?page=0', '/alert']) {
        const viaHttp = await fetch(`${base}${path}`, { headers: { ...headers, origin: 'http://ui.test' } });
        const viaApp = await proxy.app.request(path, { headers });
        expect(viaHttp.status, path).toBe(viaApp.status);
        expect(await viaHttp.text(), path).toBe(await viaApp.text());
        expect(viaHttp.headers.get('content-type')).toBe(viaApp.headers.get('content-type'));
        expect(viaHttp.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(viaHttp.headers.get('access-control-expose-headers'), path).toContain('X-Total-Count');
      }
      expect((await fetch(`${base}/__tempmon/violations`)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
