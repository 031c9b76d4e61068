import { describe, expect, it } from 'vitest';
import { exposedHeaders } from '../../src/http/browser-cors.ts';
import { listOperations } from '../../src/spec/operations.ts';
import { spec } from '../helpers.ts';

describe('listOperations', () => {
  const operations = listOperations(spec.document);

  it('lists every listing with its item schema and key header, ours first, in the order of the spec', () => {
    expect(operations.map((op) => [op.operationId, op.method, op.path, op.itemSchema, op.apiKeyHeader]).slice(0, 2)).toEqual([
      ['listAlerts', 'get', '/alert', 'Alert', 'x-api-key'],
      ['listSensors', 'get', '/sensor', 'Sensor', 'x-api-key'],
    ]);
    expect(operations.map((op) => op.path)).toEqual(
      Object.keys(spec.document.paths!).filter((path) => spec.document.paths![path]!.get && !path.endsWith('z')),
    );
    for (const op of operations) expect(spec.document.components!.schemas![op.itemSchema], op.operationId).toBeDefined();
  });

  it('resolves the shared query parameters with their limits and defaults', () => {
    const page = operations[0]!.queryParameters.find((p) => p.name === 'pageSize');
    expect(page?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(operations[1]!.queryParameters.map((p) => p.name)).toEqual(['search', 'page', 'pageSize']);
    expect(operations[0]!.queryParameters.every((p) => !p.required && p.assumed)).toBe(true);
  });

  it('lists documented responses with their media types and the problem type and title of their examples', () => {
    const problem = (type: string, title: string) => ({ contentTypes: ['application/problem+json'], problem: { type, title } });
    expect(operations[0]!.responses.map(({ schemaAt: _, headers: __, ...rest }) => rest)).toEqual([
      { status: '200', contentTypes: ['application/json'] },
      { status: '304', contentTypes: [] },
      { status: '400', ...problem('urn:tempmon:problem:invalid-query', 'Invalid query parameter') },
      { status: '401', ...problem('urn:tempmon:problem:unauthorized', 'Missing or unknown API key') },
      { status: '403', ...problem('urn:tempmon:problem:forbidden', 'Forbidden') },
      { status: '404', ...problem('about:blank', 'Not Found') },
      { status: '429', ...problem('urn:tempmon:problem:rate-limited', 'Too Many Requests') },
      { status: '500', ...problem('about:blank', 'Internal Server Error') },
      { status: '503', ...problem('about:blank', 'Service Unavailable') },
    ]);
  });

  it('reads the headers each response documents, which CORS exposes to browser apps', () => {
    expect(operations[0]!.responses.find((r) => r.status === '200')!.headers).toEqual([
      'X-Total-Count',
      'Link',
      'ETag',
      'Preference-Applied',
      'Tempmon-Moment',
      'Access-Control-Allow-Origin',
      'Access-Control-Expose-Headers',
    ]);
    expect(exposedHeaders(operations)).toEqual(['X-Total-Count', 'Link', 'ETag', 'Preference-Applied', 'Tempmon-Moment', 'Retry-After']);
  });

  it('reads the x-order and x-collection of each listing', () => {
    expect(operations.map((op) => [op.path, op.order.map((k) => `${k.field} ${k.direction}`), op.collection]).slice(0, 2)).toEqual([
      ['/alert', ['created_at desc', 'id asc'], { key: 'alerts', stream: 1, defaultCount: 300, timeline: { spanDays: 20, scale: 40 } }],
      ['/sensor', ['created_at desc', 'id asc'], { key: 'sensors', stream: 2, defaultCount: 150, timeline: { spanDays: 90, scale: 25 } }],
    ]);
    // Every listing has a collection of its own: keys and streams never shared.
    for (const field of ['key', 'stream'] as const)
      expect(new Set(operations.map((op) => op.collection[field])).size).toBe(operations.length);
  });

  it('refuses a malformed x-order, and two listings sharing a key or a stream', () => {
    const document = structuredClone(spec.document);
    document.paths!['/alert']!.get!['x-order'] = ['created_at newest'];
    expect(() => listOperations(document)).toThrow(/listAlerts: x-order entry "created_at newest" must read/);
    document.paths!['/alert']!.get!['x-order'] = [];
    document.paths!['/alert']!.get!['x-collection'] = { key: 'sensors' };
    expect(() => listOperations(document)).toThrow(/listAlerts and listSensors share x-collection key sensors/);
  });

  it('refuses an operation whose 200 is not an array of a component schema', () => {
    const document = structuredClone(spec.document);
    const ok = document.paths!['/alert']!.get!.responses!['200'];
    ok.content['application/json'].schema = { type: 'object' };
    expect(() => listOperations(document)).toThrow(/listAlerts: 200 application\/json must be an array/);
  });
});
