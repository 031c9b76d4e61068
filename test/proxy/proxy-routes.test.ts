import { describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy.ts';
import { createApp } from '../../src/server/create-app.ts';
import { KEY, spec } from '../helpers.ts';

const mock = createApp({ spec, dataset: { seed: 2, counts: { alerts: 5, sensors: 5 } } });
let forwarded = 0;
const upstream = (request: Request) => {
  forwarded += 1;
  return mock.fetch(request);
};
const lines: string[] = [];
const proxy = await createProxy({ target: 'http://upstream.test', spec, fetch: upstream, log: (l) => lines.push(l) });

describe('the proxy answers like the mock where it forwards nothing', () => {
  it.each([
    ['POST', '/alert'],
    ['DELETE', '/sensor'],
    ['PUT', '/alert'],
  ])('%s %s is 405 with the Allow header, never forwarded', async (method, path) => {
    const before = forwarded;
    const direct = await mock.request(path, { method, headers: { 'x-api-key': KEY } });
    const through = await proxy.app.request(path, { method, headers: { 'x-api-key': KEY } });
    expect(through.status).toBe(405);
    expect(through.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(through.headers.get('allow')).toBe(direct.headers.get('allow'));
    expect(through.headers.get('content-type')).toBe('application/problem+json');
    expect(await through.json()).toEqual(await direct.json());
    expect(forwarded).toBe(before);
  });

  it('serves /openapi.json, /openapi.yaml and /docs as the mock does, without a key', async () => {
    for (const path of ['/openapi.json', '/openapi.yaml', '/docs', '/docs/init.js', '/docs/swagger-ui.css']) {
      const direct = await mock.request(path);
      const through = await proxy.app.request(path);
      expect(through.status, path).toBe(200);
      expect(through.headers.get('content-type'), path).toBe(direct.headers.get('content-type'));
      expect(await through.text(), path).toBe(await direct.text());
    }
    expect(await (await proxy.app.request('/openapi.json')).json()).toEqual(spec.document);
    expect((await proxy.app.request('/nothing-here')).status).toBe(404);
  });

  it('logs a bad request query once as what it is, with no doubled word', async () => {
    lines.length = 0;
    await proxy.app.request('/alert?page=0', { headers: { 'x-api-key': KEY } });
    const line = lines.find((l) => l.includes('request_query_conformance'));
    expect(line).toMatch(
      /^violation listAlerts request query parameter page must be >= 1 \(got "0"\) \(request_query_conformance, warning\)$/,
    );
    expect(line).not.toMatch(/\b(\w+) \1\b/);
  });
});
