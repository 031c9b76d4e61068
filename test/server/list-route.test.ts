import { describe, expect, it } from 'vitest';
import { DEFAULT_DATASET, generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { defaultApp, getJson, ids, spec } from '../helpers.ts';

const app = defaultApp();
const all = generateDataset(spec.document, DEFAULT_DATASET);
type Row = Record<string, unknown>;

/** Parses an RFC 8288 Link header into rel -> URL. */
function links(header: string | null): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (match) out[match[2]!] = new URL(match[1]!);
  }
  return out;
}

describe('paging', () => {
  it('serves the listing in the documented order: record k of page p is record (p-1)n+k', async () => {
    for (const [page, size] of [
      [1, 7],
      [3, 7],
      [43, 7],
      [2, 100],
    ] as const) {
      const { body } = await getJson(app, `/alert?page=${page}&pageSize=${size}`);
      expect(body).toEqual(all.alerts!.slice((page - 1) * size, page * size));
    }
  });

  it('has disjoint, contiguous pages: three pages of 2 are the page of 6', async () => {
    const pages = await Promise.all([1, 2, 3].map((p) => getJson(app, `/sensor?page=${p}&pageSize=2`)));
    const six = await getJson(app, '/sensor?page=1&pageSize=6');
    expect(pages.flatMap((p) => ids(p.body))).toEqual(ids(six.body));
  });

  it('answers a page past the end with 200 []', async () => {
    const { response, body } = await getJson(app, '/sensor?page=9999');
    expect(response.status).toBe(200);
    expect(body).toEqual([]);
    expect(response.headers.get('x-total-count')).toBe('150');
  });

  it('sends X-Total-Count and absolute first/prev/next/last links', async () => {
    const { response } = await getJson(app, '/alert?page=3&pageSize=25&search=');
    expect(response.headers.get('x-total-count')).toBe('300');
    const rel = links(response.headers.get('link'));
    expect(Object.keys(rel)).toEqual(['first', 'prev', 'next', 'last']);
    expect(rel.first!.href).toBe('http://localhost/alert?page=1&pageSize=25&search=');
    expect(rel.prev!.searchParams.get('page')).toBe('2');
    expect(rel.next!.searchParams.get('page')).toBe('4');
    expect(rel.last!.searchParams.get('page')).toBe('12');
  });

  it('omits prev on the first page and next on the last', async () => {
    expect(Object.keys(links((await getJson(app, '/alert')).response.headers.get('link'))).sort()).toEqual(['first', 'last', 'next']);
    expect(Object.keys(links((await getJson(app, '/alert?page=15')).response.headers.get('link'))).sort()).toEqual([
      'first',
      'last',
      'prev',
    ]);
    const past = links((await getJson(app, '/alert?page=40')).response.headers.get('link'));
    expect(past.prev!.searchParams.get('page')).toBe('15');
    expect(past.next).toBeUndefined();
  });

  it('follows next links through the whole listing', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/sensor?pageSize=40';
    while (url) {
      const { response, body } = await getJson(app, url);
      seen.push(...ids(body));
      url = links(response.headers.get('link')).next?.href;
    }
    expect(seen).toEqual(ids(all.sensors));
  });

  it('gives the same records in the same order to the same request', async () => {
    expect((await getJson(app, '/alert?page=2')).body).toEqual((await getJson(app, '/alert?page=2')).body);
  });
});

describe('search', () => {
  it('finds a record by its code or serial number, ignoring case', async () => {
    const alert = all.alerts![123]!;
    const { body } = await getJson(app, `/alert?search=${String(alert.code).toLowerCase()}`);
    expect(ids(body)).toContain(alert.id);
    const sensor = all.sensors![77]!;
    const found = await getJson(app, `/sensor?search=${encodeURIComponent(String(sensor.serial_number).toLowerCase())}`);
    expect(ids(found.body)).toEqual([sensor.id]);
  });

  it('matches inside sites_id elements', async () => {
    const site = (all.alerts![5]!.sites_id as string[])[0]!;
    const { body } = await getJson(app, `/alert?search=${site.toUpperCase()}&pageSize=100`);
    const expected = all.alerts!.filter((a) => (a.sites_id as string[]).includes(site)).slice(0, 100);
    expect(ids(body)).toEqual(ids(expected));
  });

  it('returns only records containing the term, in order, counted by X-Total-Count', async () => {
    const { response, body } = await getJson(app, '/sensor?search=ROTTERDAM&pageSize=100');
    const expected = all.sensors!.filter((s) =>
      Object.values(s).some((v) => typeof v === 'string' && v.toLowerCase().includes('rotterdam')),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(body)).toEqual(ids(expected));
    expect(response.headers.get('x-total-count')).toBe(String(expected.length));
  });

  it('does not search numbers or booleans, nor across fields', async () => {
    expect((await getJson(app, '/sensor?search=true')).body).toEqual([]);
    const first = all.sensors![0]!;
    const across = `${String(first.model).slice(-2)}${String(first.last_event_at ?? '').slice(0, 2)}`;
    const { body } = await getJson(app, `/sensor?search=${encodeURIComponent(across)}&pageSize=100`);
    expect(ids(body)).not.toContain(first.id);
  });

  it('treats an empty term as no filter and an unmatched term as []', async () => {
    expect(ids((await getJson(app, '/alert?search=')).body)).toEqual(ids(all.alerts!.slice(0, 20)));
    const { response, body } = await getJson(app, '/alert?search=no-such-thing-anywhere');
    expect(body).toEqual([]);
    expect(response.headers.get('x-total-count')).toBe('0');
  });

  it.each(['(', '[', '%', "'", '"', '\\', '.*', 'température ❄', '\u0000', 'x'.repeat(1000)])(
    'answers 200 to the term %j',
    async (term) => {
      const { response, body } = await getJson(app, `/alert?search=${encodeURIComponent(term)}`);
      expect(response.status).toBe(200);
      expect(body).toEqual([]);
    },
  );
});

describe('served data files', () => {
  it('serves given records in the documented order whatever their order', async () => {
    const shuffled = [...all.sensors!.slice(0, 5)].reverse() as Row[];
    const { createApp } = await import('../../src/server/create-app.ts');
    const custom = createApp({ spec, data: { alerts: [], sensors: shuffled } });
    expect(ids((await getJson(custom, '/sensor')).body)).toEqual(ids(all.sensors!.slice(0, 5)));
    expect((await getJson(custom, '/alert')).body).toEqual([]);
  });
});
