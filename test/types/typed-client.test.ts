// The README's typed-client example, run against the mock in-process.
import createClient from 'openapi-fetch';
import type { paths } from 'tempmon-kit/types';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Alert, ListingPath, ListingRecord, Problem, Sensor, components } from '../../src/index.ts';
import { createApp } from '../../src/server/create-app.ts';
import { spec } from '../helpers.ts';

const app = createApp({ spec });

describe('a typed client generated from the spec (openapi-fetch)', () => {
  const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010', fetch: async (request) => app.fetch(request) });

  it('lists alerts with typed query parameters and typed records', async () => {
    const { data, error, response } = await client.GET('/alert', {
      params: { query: { search: 'PH28', page: 1, pageSize: 5 } },
      headers: { 'x-api-key': 'tempmon-dev-key' },
    });
    expect(error).toBeUndefined();
    expectTypeOf(data).toEqualTypeOf<Alert[] | undefined>();
    expect(data).toHaveLength(5);
    expect(data!.every((alert) => alert.code?.startsWith('PH28-'))).toBe(true);
    expect(Number(response.headers.get('x-total-count'))).toBeGreaterThan(5);
  });

  it('types error bodies as problems', async () => {
    const { data, error, response } = await client.GET('/sensor', { headers: { 'x-api-key': 'wrong' } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expectTypeOf(error).toMatchTypeOf<Problem | undefined>();
    expect(error?.title).toBe('Missing or unknown API key');
  });

  it('types every listing of the spec by its path, with no type written by hand', () => {
    expectTypeOf<ListingRecord<'/alert'>>().toEqualTypeOf<components['schemas']['Alert']>();
    expectTypeOf<Sensor>().toEqualTypeOf<components['schemas']['Sensor']>();
    // The probes are no listings.
    expectTypeOf<'/alert' | '/sensor'>().toMatchTypeOf<ListingPath>();
    expectTypeOf<'/healthz'>().not.toMatchTypeOf<ListingPath>();
  });
});
