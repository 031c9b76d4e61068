import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/run-contract.ts';
import { collectionsOf } from '../../src/fixtures/collections.ts';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { createProxy } from '../../src/proxy/create-proxy.ts';
import { createApp } from '../../src/server/create-app.ts';
import { createSchemaValidator } from '../../src/spec/schema-validator.ts';
import { KEY, spec } from '../helpers.ts';
import { withShipments } from './with-shipments.ts';

describe('a listing added to the spec', () => {
  const shipments = withShipments();
  const validator = createSchemaValidator(shipments.document);

  it('gets a collection with defaults: key from the path, its own stream, 100 records', () => {
    const collection = collectionsOf(shipments.document).find((c) => c.schema === 'Shipment')!;
    expect(collection).toMatchObject({ key: 'shipments', defaultCount: 100 });
    // The copy keeps /alert's x-order.
    expect(collection.order).toEqual([
      { field: 'created_at', direction: 'desc' },
      { field: 'id', direction: 'asc' },
    ]);
    expect(collection.stream).toBeGreaterThan(2);
  });

  it('is generated from its schema alone: valid records, seeded, newest first, the other listings unchanged', () => {
    const data = generateDataset(shipments.document, { seed: 7, counts: { shipments: 300, alerts: 5, sensors: 5 } });
    const records = data.shipments!;
    expect(records).toHaveLength(300);
    expect(records.flatMap((r, i) => validator.validate('Shipment', r, `$[${i}]`))).toEqual([]);
    const times = records.map((r) => Date.parse(r.created_at as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(times).size).toBe(times.length);
    // Every optional field shows up somewhere, and the same seed gives the same bytes.
    for (const field of ['status', 'weight_kg', 'pallets', 'hazardous', 'tags', 'origin', 'carrier'])
      expect(
        records.some((r) => field in r),
        field,
      ).toBe(true);
    expect(JSON.stringify(generateDataset(shipments.document, { seed: 7, counts: { shipments: 300 } }).shipments)).toBe(
      JSON.stringify(records),
    );
    // Adding a listing shifts nothing of the others.
    expect(data.alerts).toEqual(generateDataset(spec.document, { seed: 7, counts: { alerts: 5, sensors: 5 } }).alerts);
  });

  it('is served by the mock with search and paging', async () => {
    const app = createApp({ spec: shipments, apiKeys: [KEY] });
    const response = await app.request('/shipment?pageSize=5&page=2', { headers: { 'x-api-key': KEY } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('100');
    expect(response.headers.get('link')).toContain('/shipment?pageSize=5&page=3');
    const page = (await response.json()) as { reference: string }[];
    expect(page).toHaveLength(5);
    const found = await app.request(`/shipment?search=${page[0]!.reference.toLowerCase()}`, { headers: { 'x-api-key': KEY } });
    expect(((await found.json()) as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect((await app.request('/shipment')).status).toBe(401);
  });

  it('is checked by the contract kit: conformant, with every check run on it', async () => {
    const app = createApp({ spec: shipments, apiKeys: [KEY] });
    const report = await runContract({
      target: 'http://in-process.mock',
      apiKey: KEY,
      document: shipments.document,
      strict: true,
      fetch: (request) => app.fetch(request),
    });
    const mine = report.outcomes.filter((o) => o.operationId === 'listShipments');
    expect(mine.length).toBeGreaterThan(20);
    expect(mine.filter((o) => o.status === 'failed').map((o) => o.failures.map((f) => f.message))).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('is validated by the proxy, which catches a target breaking its schema', async () => {
    const app = createApp({ spec: shipments, apiKeys: [KEY] });
    const broken = async (request: Request) => {
      const response = await app.fetch(request);
      if (!new URL(request.url).pathname.startsWith('/shipment') || response.status !== 200) return response;
      const records = (await response.json()) as Record<string, unknown>[];
      return Response.json(
        records.map((r) => ({ ...r, pallets: 'many' })),
        { headers: response.headers },
      );
    };
    for (const [target, expected] of [
      [(request: Request) => app.fetch(request), 0],
      [broken, 1],
    ] as const) {
      const proxy = await createProxy({ target: 'http://target.test', spec: shipments, fetch: target });
      const response = await proxy.app.request('/shipment?pageSize=50', { headers: { 'x-api-key': KEY } });
      expect(response.status).toBe(200);
      const { violations } = proxy.violations();
      expect(violations.length > 0 ? 1 : 0, JSON.stringify(violations)).toBe(expected);
      if (expected) expect(violations.some((v) => /pallets/.test(v.message))).toBe(true);
    }
  });
});
