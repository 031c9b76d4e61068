// The shell the mock and the proxy share, tested on its own with a route that fails, and on both servers.
import { describe, expect, it } from 'vitest';
import { createShell, type ShellOptions } from '../../src/http/create-shell.ts';
import { keyHider } from '../../src/http/hide-keys.ts';
import { createProxy } from '../../src/proxy/create-proxy.ts';
import { createApp } from '../../src/server/create-app.ts';
import { listOperations } from '../../src/spec/operations.ts';
import { KEY, spec } from '../helpers.ts';

const operations = listOperations(spec.document).filter((op) => op.method === 'get');
const listing = operations[0]!;

/** A shell around one route that throws an error quoting the request's URL (and so any key in it). */
function failing(hideKeys: ShellOptions['hideKeys']) {
  const logged: string[] = [];
  const app = createShell({ spec, operations, name: 'test server', hideKeys, logFailure: (line) => logged.push(line) }, (app) =>
    app.get(listing.path, (c) => {
      throw new Error(`cannot answer ${c.req.url}`);
    }),
  );
  return { app, logged };
}

describe('the HTTP shell', () => {
  it.each([
    ['the same keys for every request', { always: keyHider([KEY]) }],
    ['the key each request carries', { perRequest: () => keyHider([KEY]) }],
  ] as const)('answers a failing route with a 500 problem that leaks nothing, and logs the cause with %s hidden', async (_, hideKeys) => {
    const { app, logged } = failing(hideKeys);
    const response = await app.request(`${listing.path}?x-api-key=${KEY}`);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ status: 500, detail: 'The test server failed unexpectedly; this is a bug in tempmon-kit.' });
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('cannot answer');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(new RegExp(`^unexpected error on GET ${listing.path}: cannot answer `));
    expect(logged[0]).not.toContain(KEY);
  });

  it('answers another method on a listing path with 405, any other path with 404, and serves the spec', async () => {
    const { app } = failing({ always: keyHider([KEY]) });
    const post = await app.request(listing.path, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    expect((await app.request('/nope')).status).toBe(404);
    expect((await app.request('/openapi.yaml')).status).toBe(200);
  });

  it('is what the mock and the proxy both answer with: the same 404 and 405 documents', async () => {
    const mock = createApp({ spec });
    const proxy = (await createProxy({ spec, target: 'http://127.0.0.1:1', fetch: () => new Response('[]') })).app;
    for (const [path, method] of [
      ['/nope', 'GET'],
      [listing.path, 'DELETE'],
    ] as const) {
      const [a, b] = await Promise.all([mock.request(path, { method }), proxy.request(path, { method })]);
      expect([a.status, a.headers.get('content-type')]).toEqual([b.status, b.headers.get('content-type')]);
      expect(await a.json()).toEqual(await b.json());
    }
  });
});
