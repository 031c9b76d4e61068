// The Worker's handler as wrangler bundles it (dist/runtimes/worker-entry.js, built by `npm run build`),
// run in Node: the spec comes in as the text a wrangler Text rule hands over.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ROOT } from '../built-cli.ts';

vi.mock('../../spec/openapi.yaml', () => ({ default: readFileSync(`${ROOT}spec/openapi.yaml`, 'utf8') }));

const { default: worker } = (await import(`${ROOT}dist/runtimes/worker-entry.js`)) as typeof import('../../src/runtimes/worker-entry.ts');

describe('worker-entry', () => {
  it('answers an invalid configuration with a 500 problem giving the reason, never the key', async () => {
    const response = await worker.fetch(new Request('http://w/alert'), { TEMPMON_DATA: 'a.json', TEMPMON_API_KEY: 'secret-key-1' });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const text = await response.text();
    expect(text).not.toContain('secret-key-1');
    expect(JSON.parse(text)).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'tempmon: data files (TEMPMON_DATA, --data) need Bun, Deno or Node: a Worker has no file system',
    });
    const empty = await worker.fetch(new Request('http://w/alert'), { TEMPMON_API_KEY: ' ', TEMPMON_LATENCY: '1' });
    expect(JSON.parse(await empty.text()).detail).toMatch(/^tempmon: TEMPMON_API_KEY is set but empty/);
  });

  it('serves once configured, with the conditions of its vars', async () => {
    const env = { TEMPMON_API_KEY: 'k', TEMPMON_RATE_LIMIT: '1', TEMPMON_ALERTS: '3' };
    const statuses: number[] = [];
    const request = () => new Request('http://w/alert', { headers: { 'x-api-key': 'k' } });
    // One a second: of three quick requests, at most one window boundary apart, at least one is refused.
    for (let i = 0; i < 3; i += 1) statuses.push((await worker.fetch(request(), env)).status);
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
  });
});
