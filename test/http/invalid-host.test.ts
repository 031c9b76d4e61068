// Over real HTTP through the serve listener: a Host that makes no valid URL gets a clear 400, never a blank 500.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMock } from '../../src/server/create-app.ts';
import { nodeListener } from '../../src/server/node-listener.ts';
import { KEY, rawConversation, spec, validator } from '../helpers.ts';

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer(nodeListener(createMock({ spec, dataset: { seed: 3, counts: { alerts: 20, sensors: 5 } } })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
});

/** A GET with a Host of our choosing (fetch would not send it). */
function get(path: string, host: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, 'x-api-key': KEY, origin: 'http://ui.test' } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('an invalid Host', () => {
  it.each(['999.0.0.1', 'a.1', '1.2.3.4.5'])('%s gets 400 problem+json with CORS on every path, and the cause is logged', async (host) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const path of ['/alert', '/sensor?page=2', '/nope', '/openapi.json']) {
        const response = await get(path, host);
        expect(response.status, `${host} ${path}`).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.headers['access-control-allow-origin']).toBeDefined();
        expect(JSON.parse(response.body)).toMatchObject({ status: 400, type: 'urn:tempmon:problem:invalid-host', instance: path });
      }
      expect(logged.mock.calls.flat().join('\n')).toContain(`invalid Host "${host}"`);
    } finally {
      logged.mockRestore();
    }
  });

  it('a valid Host still gets its listing', async () => {
    const response = await get('/alert?pageSize=2', 'localhost:1234');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toHaveLength(2);
  });
});

/** Writes `head` on a raw socket and reads the one response (the head says `Connection: close`). */
const raw = (head: string): Promise<string> => rawConversation(port, [head]);

describe('what @hono/node-server refuses before the app', () => {
  it.each([
    ['a Host with a space', 'GET /alert HTTP/1.1\r\nHost: a b\r\n', 'invalid-host'],
    ['an unclosed IPv6 Host', 'GET /alert HTTP/1.1\r\nHost: [::1\r\n', 'invalid-host'],
    ['a Host with userinfo', 'GET /alert HTTP/1.1\r\nHost: a@b\r\n', 'invalid-host'],
    ['a Host with a query, and the key', `GET /alert?pageSize=5 HTTP/1.1\r\nHost: a?pageSize=1#\r\nx-api-key: ${KEY}\r\n`, 'invalid-host'],
    ['HTTP/1.0 without Host', 'GET /alert HTTP/1.0\r\n', 'invalid-host'],
    ['an asterisk target', 'GET * HTTP/1.1\r\nHost: localhost\r\n', 'invalid-request'],
    ['an absolute target with an invalid host', 'GET http://999.0.0.1/alert HTTP/1.1\r\nHost: localhost\r\n', 'invalid'],
  ])('%s gets 400 problem+json with CORS, never data', async (_, head, type) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const text = await raw(`${head}Origin: http://ui.test\r\nConnection: close\r\n\r\n`);
      const [headers = '', body = ''] = text.split('\r\n\r\n');
      expect(headers).toMatch(/^HTTP\/1\.[01] 400 /);
      expect(headers.toLowerCase()).toContain('content-type: application/problem+json');
      expect(headers.toLowerCase()).toContain('access-control-allow-origin: *');
      const problem = JSON.parse(body) as { type: string; status: number };
      expect(problem.type).toContain(`urn:tempmon:problem:${type}`);
      expect(validator.validate('Problem', problem)).toEqual([]);
      expect(logged.mock.calls.flat().join('\n')).toMatch(/tempmon: refused/);
    } finally {
      logged.mockRestore();
    }
  });
});
