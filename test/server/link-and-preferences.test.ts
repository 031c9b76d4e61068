// Over real HTTP through the listener `tempmon serve` uses (its fast path included).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/server/create-app.ts';
import { nodeListener } from '../../src/server/node-listener.ts';
import { MAX_LINK_BYTES } from '../../src/server/paginate.ts';
import { KEY, spec } from '../helpers.ts';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer(nodeListener(createMock({ spec, dataset: { seed: 2, counts: { alerts: 90, sensors: 10 } } })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers: { 'x-api-key': KEY, ...headers } });

describe('Link carries only the spec parameters, bounded', () => {
  it('keeps search, page and pageSize, and never an unknown parameter', async () => {
    const response = await get(`/alert?search=a&pageSize=5&page=2&tracking=${'x'.repeat(5_000)}&utm=1`);
    expect(response.status).toBe(200);
    const link = response.headers.get('link')!;
    expect(link).toContain('search=a');
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(Object.fromEntries(new URL(next).searchParams)).toEqual({ search: 'a', page: '3', pageSize: '5' });
    expect(link).not.toContain('tracking');
    expect(link).not.toContain('utm');
    expect(link.length).toBeLessThan(1_000);
  });

  it('is left out (it is optional) rather than repeating a search term of kilobytes four times', async () => {
    const response = await get(`/alert?search=${'a'.repeat(3_000)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('link')).toBeNull();
    const short = await get('/alert?search=a');
    expect(short.headers.get('link')!.length).toBeLessThanOrEqual(MAX_LINK_BYTES);
  });
});

describe('Preference-Applied lists every preference applied', () => {
  it('code and delay together', async () => {
    const response = await get('/alert', { prefer: 'code=503, delay=5' });
    expect(response.status).toBe(503);
    const applied = (response.headers.get('preference-applied') ?? '').split(/,\s*/).sort();
    expect(applied).toEqual(['code=503', 'delay=5']);
  });

  it('?__code= reports the code it applied', async () => {
    const response = await get('/alert?__code=500');
    expect(response.status).toBe(500);
    expect(response.headers.get('preference-applied')).toBe('code=500');
  });
});
