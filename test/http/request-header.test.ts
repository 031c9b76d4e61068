import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeader } from '../../src/http/request-header.ts';

// What a route reads: the same under @hono/node-server (node:http's parsed headers) as from a Request.
const app = new Hono();
app.get('/', (c) =>
  c.json({
    prefer: requestHeader(c, 'prefer') ?? null,
    key: requestHeader(c, 'X-Api-Key') ?? null,
    none: requestHeader(c, 'if-none-match') ?? null,
  }),
);

let server: Server;
beforeAll(async () => {
  server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** GET / over node:http with these raw header lines (repeats kept; raw lines get no Host of their own). */
function viaNode(lines: readonly (readonly [string, string])[]): Promise<unknown> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path: '/', headers: [['host', `127.0.0.1:${port}`], ...lines].flat() }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on('end', () => {
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new Error(`${response.statusCode}: ${text}`));
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('requestHeader', () => {
  it("reads the Request's headers where the environment is no node:http pair (a Worker var named incoming)", async () => {
    const response = await app.request('/', { headers: { prefer: 'code=503' } }, { incoming: 'a Worker var' });
    expect(await response.json()).toMatchObject({ prefer: 'code=503' });
  });

  it.each([
    [
      'single headers',
      [
        ['Prefer', 'code=503'],
        ['x-api-key', 'k1'],
      ],
    ],
    [
      'repeated headers, joined as Fetch joins them',
      [
        ['prefer', 'code=503'],
        ['PREFER', 'delay=10'],
        ['x-api-key', 'a'],
        ['X-API-KEY', 'b'],
      ],
    ],
    [
      'empty values and surrounding spaces',
      [
        ['prefer', ''],
        ['x-api-key', '  k2  '],
      ],
    ],
    ['no such headers', []],
  ] as const)('reads %s as a Request does', async (_, lines) => {
    const fromRequest = await (await app.request('/', { headers: new Headers(lines.map(([n, v]): [string, string] => [n, v])) })).json();
    expect(await viaNode(lines)).toEqual(fromRequest);
  });
});
