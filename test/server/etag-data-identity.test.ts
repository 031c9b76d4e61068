// Over real HTTP, as a client sees a restart: an ETag from one dataset never matches another's.
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { createApp } from '../../src/server/create-app.ts';
import { KEY, spec } from '../helpers.ts';

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** Serves an app on a free loopback port; resolves with its base URL. */
function listen(app: ReturnType<typeof createApp>): Promise<string> {
  return new Promise((resolve) => {
    servers.push(serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server);
  });
}

/** GET /alert?page=2 with the key and, when given, If-None-Match. */
const fetchPage = (base: string, etag?: string) =>
  fetch(`${base}/alert?page=2`, { headers: { 'x-api-key': KEY, ...(etag ? { 'if-none-match': etag } : {}) } });

describe("the ETag carries the data's identity", () => {
  it('a restart with another seed answers a tag of the old data with 200 and the new bytes', async () => {
    const counts = { alerts: 60, sensors: 10 };
    const before = await fetchPage(await listen(createApp({ spec, dataset: { seed: 1, counts } })));
    const etag = before.headers.get('etag')!;
    const same = await listen(createApp({ spec, dataset: { seed: 1, counts } }));
    expect((await fetchPage(same, etag)).status).toBe(304);
    const other = await fetchPage(await listen(createApp({ spec, dataset: { seed: 2, counts } })), etag);
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
    expect(await other.text()).not.toBe(await before.text());
  });

  it('other counts or another data file give other tags; the same data file the same tag', async () => {
    const tag = async (app: ReturnType<typeof createApp>) => (await fetchPage(await listen(app))).headers.get('etag');
    const data = (seed: number) => generateDataset(spec.document, { seed, counts: { alerts: 45, sensors: 5 } });
    expect(await tag(createApp({ spec, dataset: { seed: 1, counts: { alerts: 60, sensors: 10 } } }))).not.toBe(
      await tag(createApp({ spec, dataset: { seed: 1, counts: { alerts: 61, sensors: 10 } } })),
    );
    const [a, b, c] = [
      await tag(createApp({ spec, data: data(3) })),
      await tag(createApp({ spec, data: data(3) })),
      await tag(createApp({ spec, data: data(4) })),
    ];
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});
