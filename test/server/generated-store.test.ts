import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { createRecordFactory } from '../../src/fixtures/record-factory.ts';
import { SYNC_INDEX_LIMIT, createGeneratedStore } from '../../src/server/generated-store.ts';
import type { PageResult } from '../../src/server/record-store.ts';
import { spec } from '../helpers.ts';

const factory = createRecordFactory(spec.document, 12);

describe('generated store', () => {
  it('serves exactly the records generateDataset makes, without holding them', () => {
    const { sensors } = generateDataset(spec.document, { seed: 12, counts: { alerts: 0, sensors: 500 } });
    const store = createGeneratedStore(factory, 'Sensor', 500);
    const page = (term: string, start: number, end: number) => {
      const result = store.page(term, start, end) as PageResult;
      // The JSON a store keeps must be exactly the records' JSON.
      if (result.json !== undefined) expect(result.json).toBe(JSON.stringify(result.records));
      return { total: result.total, records: result.records };
    };
    expect(page('', 0, 20)).toEqual({ total: 500, records: sensors!.slice(0, 20) });
    expect(page('', 480, 600)).toEqual({ total: 500, records: sensors!.slice(480) });
    expect(page('', 900, 920)).toEqual({ total: 500, records: [] });
    const term = String(sensors![321]!.serial_number);
    expect(page(term.toLowerCase(), 0, 10)).toEqual({ total: 1, records: [sensors![321]] });
    expect((store.page('', 0, 3) as PageResult).json).toBeDefined();
  });

  it('builds a large index in the background, answering { warming } until it is ready', async () => {
    const count = SYNC_INDEX_LIMIT + 10_000;
    const store = createGeneratedStore(factory, 'Sensor', count);
    const target = factory.record('Sensor', count - 3);
    const first = store.page(String(target.id), 0, 5);
    expect(first).toEqual({ warming: 0 });
    // Pages never wait for the index.
    expect((store.page('', count - 1, count + 5) as PageResult).records).toEqual([factory.record('Sensor', count - 1)]);
    let result = store.page(String(target.id), 0, 5);
    // Under the test's own timeout (vitest.config.ts), so a stuck index fails here, showing the last answer.
    const deadline = Date.now() + 15_000;
    while ('warming' in result && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      result = store.page(String(target.id), 0, 5);
    }
    expect(result).toMatchObject({ total: 1, records: [target] });
  });
});

describe('a search before the index is ready', () => {
  it('gets 503 problem+json with Retry-After, while pages are served', async () => {
    const { createApp } = await import('../../src/server/create-app.ts');
    const app = createApp({ spec, dataset: { seed: 3, counts: { alerts: 0, sensors: SYNC_INDEX_LIMIT + 1 } } });
    const headers = { 'x-api-key': 'tempmon-dev-key' };
    const search = await app.request('/sensor?search=rotterdam', { headers });
    expect(search.status).toBe(503);
    expect(search.headers.get('retry-after')).toBe('2');
    expect(await search.json()).toMatchObject({
      status: 503,
      detail: expect.stringMatching(/search index is still being built \(\d+% done\)/),
    });
    expect((await app.request('/sensor?page=2500', { headers })).status).toBe(200);
  });
});
