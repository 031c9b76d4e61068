import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/create-app.ts';
import { defaultApp, getJson, ids, spec, validator } from '../helpers.ts';

type Problem = { status: number; type: string; detail: string; errors: { in: string; name: string; detail: string }[] };

describe('query validation derived from the spec', () => {
  const app = defaultApp();

  it('applies the spec defaults: page 1 of 20', async () => {
    const { response, body } = await getJson(app, '/alert');
    expect(response.status).toBe(200);
    expect(body).toHaveLength(20);
    expect(ids(body)).toEqual(ids((await getJson(app, '/alert?page=1&pageSize=20')).body));
  });

  it.each([
    ['page=0', 'page', 'must be >= 1'],
    ['page=-1', 'page', 'must be >= 1'],
    ['page=1.5', 'page', 'must be an integer'],
    ['page=abc', 'page', 'must be an integer'],
    ['page=', 'page', 'must be an integer'],
    ['page=%201', 'page', 'must be an integer'],
    ['pageSize=0', 'pageSize', 'must be >= 1'],
    ['pageSize=101', 'pageSize', 'must be <= 100'],
    ['pageSize=-3', 'pageSize', 'must be >= 1'],
    ['pageSize=abc', 'pageSize', 'must be an integer'],
    ['pageSize=1e2', 'pageSize', 'must be an integer'],
    ['page=1&page=2', 'page', 'must be given once'],
  ])('answers 400 problem+json to %s', async (query, name, detail) => {
    const { response, body } = await getJson(app, `/sensor?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = body as Problem;
    expect(problem).toMatchObject({ status: 400, type: 'urn:tempmon:problem:invalid-query', instance: `/sensor?${query}` });
    expect(problem.errors).toEqual([{ in: 'query', name, detail: expect.stringContaining(detail) }]);
    expect(problem.detail).toContain(`${name} ${detail}`);
    expect(validator.validate('Problem', body)).toEqual([]);
  });

  it('reports every bad parameter at once', async () => {
    const { body } = await getJson(app, '/alert?page=0&pageSize=500');
    expect((body as Problem).errors.map((e) => e.name)).toEqual(['page', 'pageSize']);
  });

  it('accepts the limits and ignores unknown parameters', async () => {
    for (const query of ['page=1', 'pageSize=1', 'pageSize=100', 'page=007', 'unknown=1&sort=desc']) {
      expect((await getJson(app, `/alert?${query}`)).response.status).toBe(200);
    }
    expect((await getJson(app, '/alert?pageSize=100')).body).toHaveLength(100);
  });

  it('cuts a huge echoed value short', async () => {
    const { body } = await getJson(app, `/alert?page=${'9'.repeat(50)}x${'9'.repeat(500)}`);
    expect((body as Problem).detail.length).toBeLessThan(200);
  });

  it('follows an edited spec: limits and defaults are read, not retyped', async () => {
    const document = structuredClone(spec.document);
    const pageSize = document.components!.parameters!.pageSize as { schema: { maximum: number; default: number } };
    pageSize.schema.maximum = 50;
    pageSize.schema.default = 7;
    const edited = createApp({ spec: { ...spec, document }, dataset: { seed: 1, counts: { alerts: 100, sensors: 1 } } });
    expect((await getJson(edited, '/alert')).body).toHaveLength(7);
    expect((await getJson(edited, '/alert?pageSize=50')).response.status).toBe(200);
    const { response, body } = await getJson(edited, '/alert?pageSize=51');
    expect(response.status).toBe(400);
    expect((body as Problem).errors[0]!.detail).toContain('must be <= 50');
  });
});
