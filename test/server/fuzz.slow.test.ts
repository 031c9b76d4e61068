import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY, defaultApp, validator } from '../helpers.ts';

const app = defaultApp();

// Values a client might send: valid ones, edge numbers, and arbitrary or hostile text.
const queryValue = fc.oneof(
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom('', '1.5', '1e2', '0x10', ' 1', '+1', '-0', '9'.repeat(30), 'NaN', 'null', '%', '%zz', '[]', '{}'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const queryName = fc.oneof(fc.constantFrom('page', 'pageSize', 'search', 'PAGE', 'page[]', 'page_size'), fc.string({ maxLength: 10 }));
const query = fc.array(fc.tuple(queryName, queryValue), { maxLength: 5 });
const path = fc.oneof(
  { arbitrary: fc.constantFrom('/alert', '/sensor'), weight: 4 },
  { arbitrary: fc.constantFrom('/alert/', '/sensor/x', '/', '/openapi.json', '/ALERT', '//alert', '/%2e%2e/alert', '/%zz'), weight: 1 },
  { arbitrary: fc.webPath(), weight: 1 },
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');
const key = fc.oneof(
  { arbitrary: fc.constant(KEY), weight: 4 },
  { arbitrary: fc.constantFrom(undefined, ''), weight: 1 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
);
const extraHeaders = fc.dictionary(
  fc.constantFrom('accept', 'prefer', 'origin', 'x-forwarded-host', 'content-type', 'access-control-request-method'),
  // Forcing a status or a delay is asked for on purpose; every other preference must be harmless.
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').replace(/code|delay/gi, 'x')),
  { maxKeys: 3 },
);

describe('no client input causes a 5xx', () => {
  it('answers every request with a documented shape', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(method, path, query, key, extraHeaders, async (m, p, q, k, extra) => {
        const search = new URLSearchParams(q).toString();
        const headers: Record<string, string> = { ...extra };
        if (k !== undefined) headers['x-api-key'] = k.replace(/[^\x20-\x7e]/g, '');
        const response = await app.request(`${p}${search ? `?${search}` : ''}`, { method: m, headers });
        expect(response.status).toBeLessThan(500);
        seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
        const text = await response.text();
        const type = response.headers.get('content-type') ?? '';
        if (m === 'HEAD') {
          expect(text).toBe('');
        } else if (response.status >= 400) {
          expect(type).toBe('application/problem+json');
          const body = JSON.parse(text);
          expect(validator.validate('Problem', body)).toEqual([]);
          expect(body.status).toBe(response.status);
        } else if (response.status === 200 && m === 'GET' && /^\/(alert|sensor)$/.test(new URL(`http://x${p}`).pathname)) {
          const body = JSON.parse(text) as unknown[];
          expect(Array.isArray(body)).toBe(true);
          const schema = p.startsWith('/alert') ? 'Alert' : 'Sensor';
          for (const [i, record] of body.entries()) expect(validator.validate(schema, record, `$[${i}]`)).toEqual([]);
        }
      }),
      { numRuns: 1000 },
    );
    // The run must have reached the listings, the validation and the auth, or it proved nothing.
    for (const status of [200, 400, 401, 404, 405]) expect(seen.get(status) ?? 0).toBeGreaterThan(5);
  });
});
