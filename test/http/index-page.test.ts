// Issue 51, item 7: the mock's bare URL says where to go (GET /: the docs, the spec, the listings), and its start
// banner names /docs.
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.ts';
import { createApp } from '../../src/server/create-app.ts';
import { listListings } from '../../src/spec/operations.ts';
import { startInProcess } from '../cli/cli-helpers.ts';
import { spec } from '../helpers.ts';

const app = createApp({ spec, dataset: { seed: 1, counts: { alerts: 5, sensors: 5 } } });
const LISTINGS = listListings(spec.document).map((op) => op.path);

describe('GET / of the mock', () => {
  it('answers a short JSON index without a key: the docs, the spec and every listing of the spec, and the key header', async () => {
    const response = await app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const index = (await response.json()) as { links: Record<string, string>; apiKeyHeader: string };
    expect(Object.keys(index.links)).toEqual(['/docs', '/openapi.json', ...LISTINGS]);
    expect(index.links['/alert']).toBe('GET: List alerts');
    expect(index.apiKeyHeader).toBe('x-api-key');
    expect(JSON.stringify(index)).not.toContain('tempmon-dev-key');
    // Every link it gives is served (the listings with a key).
    for (const href of Object.keys(index.links)) {
      const status = (await app.request(href, { headers: { 'x-api-key': 'tempmon-dev-key' } })).status;
      expect(status, href).toBe(200);
    }
  });

  it('is an HTML page of links for a browser', async () => {
    const response = await app.request('/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    for (const href of ['/docs', '/openapi.json', ...LISTINGS]) expect(page).toContain(`<a href="${href}">`);
  });

  it('is named in the start banner, with /docs', async () => {
    const { url, output } = await startInProcess(serveCommand, ['--quiet']);
    expect(output()).toContain(`  docs: ${url}/docs (no key needed; ${url}/ lists the rest)`);
  });
});
