import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { createRecordFactory } from '../../src/fixtures/record-factory.ts';
import { SYNC_INDEX_LIMIT, createGeneratedStore } from '../../src/store/generated-store.ts';
import type { PageResult } from '../../src/store/record-store.ts';
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

  it('indexes a small collection in the background from the start, so no search has to build it', async () => {
    const made = new Set<number>();
    const counting = {
      ...factory,
      record: (schema: string, i: number) => {
        made.add(i);
        return factory.record(schema, i);
      },
    };
    const store = createGeneratedStore(counting, 'Sensor', 3_000);
    expect(made.size).toBe(0);
    // Under the test's own timeout (vitest.config.ts), so a build that never runs fails here.
    const deadline = Date.now() + 15_000;
    while (made.size < 3_000 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(made.size).toBe(3_000);
    const target = factory.record('Sensor', 2_999);
    made.clear();
    const found = store.page(String(target.id), 0, 5) as PageResult;
    expect(found).toMatchObject({ total: 1, records: [target] });
    // Every record was made and kept by the background build, its JSON too: the search made none.
    expect(made.size).toBe(0);
    expect(found.json).toBe(JSON.stringify([target]));
  });

  // Builds 60,000 records' index, CPU-bound: a loaded machine makes it several times longer than here.
  it('builds large indexes in the background, one after another, answering { warming } until ready', async () => {
    const count = SYNC_INDEX_LIMIT + 10_000;
    const store = createGeneratedStore(factory, 'Sensor', count);
    const other = createGeneratedStore(factory, 'Alert', SYNC_INDEX_LIMIT + 1);
    const target = factory.record('Sensor', count - 3);
    const first = store.page(String(target.id), 0, 5);
    expect(first).toEqual({ warming: 0 });
    // Pages never wait for the index.
    expect((store.page('', count - 1, count + 5) as PageResult).records).toEqual([factory.record('Sensor', count - 1)]);
    let result = store.page(String(target.id), 0, 5);
    // Under the test's own timeout (vitest.config.ts), so a stuck index fails here, showing the last answer.
    const deadline = Date.now() + 15_000;
    while ((other.searchReady() < 1 || 'warming' in result) && Date.now() < deadline) {
      // The second collection's index starts once the first one's is done.
      if (other.searchReady() > 0) expect(store.searchReady()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      result = store.page(String(target.id), 0, 5);
    }
    expect(result).toMatchObject({ total: 1, records: [target] });
    // Laid out for size (ids and timestamps as hex digits, names as codes), it finds what a plain scan finds.
    const strings = Array.from({ length: count }, (_, i) =>
      Object.values(factory.record('Sensor', i))
        .flat()
        .filter((v): v is string => typeof v === 'string')
        .map((v) => v.toLowerCase()),
    );
    for (const term of [
      String(target.created_at).slice(0, 13),
      String(target.name),
      String(target.id).slice(9, 23),
      'e-4',
      '7z',
      'FL5-26',
    ]) {
      const page = store.page(term, 100, 120) as PageResult;
      const expected = strings.flatMap((values, i) => (values.some((v) => v.includes(term.toLowerCase())) ? [i] : []));
      expect(page.total, term).toBe(expected.length);
      expect(page.records, term).toEqual(expected.slice(100, 120).map((i) => factory.record('Sensor', i)));
    }
    expect(other.page(String(factory.record('Alert', 7).id), 0, 5)).toMatchObject({ total: 1 });
  }, 120_000);
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
