import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../../../src/contract/client/http-client.ts';
import { COPIES, isNewer, newestCopy } from '../../../src/contract/moment/newest-copy.ts';
import type { Exchange } from '../../../src/contract/types.ts';

const answer = (ids: readonly string[], count?: number, status = 200): Exchange => ({
  operationId: 'listAlerts',
  request: { method: 'GET', url: 'http://t/alert', headers: {} },
  response: {
    status,
    headers: count === undefined ? {} : { 'x-total-count': String(count) },
    text: '',
    json: ids.map((id) => ({ id })),
    durationMs: 0,
  },
});
/** A listing known by its count header, with no order stated. */
const counted = { countHeader: 'x-total-count', order: [] };
const listing = (n: number) => Array.from({ length: n }, (_, i) => `r${n - i}`);

describe('isNewer: which of two answers to one request shows the listing later', () => {
  it('tells a page read after records arrived at the head from the same page read before, either way round', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 2, max: 25 }),
        fc.integer({ min: 0, max: 3 }),
        (arrived, size, page) => {
          const before = listing(200);
          const after = listing(200 + arrived);
          fc.pre(arrived < size);
          const at = (ids: string[]) => answer(ids.slice(page * size, (page + 1) * size));
          expect(isNewer(at(after), at(before), counted)).toBe(true);
          expect(isNewer(at(before), at(after), counted)).toBe(false);
        },
      ),
    );
  });

  it('with no record in common, a larger X-Total-Count, else more records, is newer; equal answers are not', () => {
    expect(isNewer(answer(['a'], 11), answer(['b'], 10), counted)).toBe(true);
    expect(isNewer(answer(['a'], 10), answer(['b'], 11), counted)).toBe(false);
    expect(isNewer(answer(['new']), answer([]), counted)).toBe(true);
    expect(isNewer(answer(['a', 'b'], 2), answer(['a', 'b'], 2), counted)).toBe(false);
  });

  it('a window of constant size, one record a page: the record that comes earlier in the order stood there later', () => {
    // Record i created i minutes after the first; a window of 300, newest first, one arrival apart.
    const record = (i: number) => ({ id: `r${i}`, created_at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() });
    const window = (newest: number) => Array.from({ length: 300 }, (_, k) => record(newest - k));
    const pageOf = (records: readonly Record<string, unknown>[], page: number): Exchange => {
      const base = answer([], 300);
      return { ...base, response: { ...base.response!, json: records.slice(page - 1, page) } };
    };
    const versions = { countHeader: 'x-total-count', order: [{ field: 'created_at', direction: 'desc' as const }] };
    for (const page of [1, 10, 300]) {
      expect(isNewer(pageOf(window(1000), page), pageOf(window(999), page), versions)).toBe(true);
      expect(isNewer(pageOf(window(999), page), pageOf(window(1000), page), versions)).toBe(false);
    }
    // With no order stated, nothing tells them apart: neither is newer.
    expect(isNewer(pageOf(window(1000), 10), pageOf(window(999), 10), counted)).toBe(false);
  });
});

describe('newestCopy: each plain listing request answered by the newest of its copies', () => {
  const replicas = (extra: Partial<Exchange['response']> = {}) => {
    const sent: unknown[] = [];
    let n = 0;
    const client: HttpClient = {
      secrets: { headerValues: [] },
      stats: { sent: 0, retried: 0, cut: 0 },
      async send(_op, _path, query, options) {
        sent.push(options ?? query);
        n += 1;
        // Two replicas in turn, the first one record behind.
        const base = answer(n % 2 ? listing(49).slice(0, 20) : listing(50).slice(0, 20));
        return { ...base, response: { ...base.response!, ...extra } };
      },
      sendTogether(op, asks) {
        return asks.map((ask) => client.send(op, ask.path, ask.query, ask.options));
      },
    };
    return { client: newestCopy(client, counted), sent };
  };

  it(`sends ${COPIES} copies at once and keeps the newest answer`, async () => {
    const { client, sent } = replicas();
    const got = await client.send('listAlerts', '/alert', { page: '1' });
    expect(sent).toHaveLength(COPIES);
    expect((got.response!.json as { id: string }[])[0]!.id).toBe('r50');
  });

  it('sends a request with a method, headers or key of its own once, and keeps an answer that is not a 200 array', async () => {
    const once = replicas();
    await once.client.send('listAlerts', '/alert', {}, { apiKey: null });
    expect(once.sent).toEqual([{ apiKey: null }]);
    const broken = replicas({ status: 500 });
    expect((await broken.client.send('listAlerts', '/alert', {})).response!.status).toBe(500);
  });
});
