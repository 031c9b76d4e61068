// An in-process target with a listing far longer than --max-pages reads (a million records and more), made
// lazily: record i is a pure function of i, built only when a page holds it, so a run against it takes seconds.
// Everything but a listing's 200 body (auth, validation, errors) is the mock's own, answered for a small
// dataset; the 200 body and X-Total-Count are then the long listing's. Variants break it the way real
// backends break at scale, each from a given record index on.
import { createApp } from '../../../src/server/create-app.ts';
import { spec } from '../../helpers.ts';

type Json = Record<string, unknown>;

/** How a variant changes the answer for page `page` of size `size` over `count` results. */
export interface Variant {
  readonly name: string;
  /** The first result index served for the page (default: (page - 1) * size). */
  start?(page: number, size: number): number;
  /** The records served, after slicing (default: unchanged). */
  records?(records: Json[], page: number, size: number, count: number, slice: (start: number) => Json[]): Json[];
  /** The record at index i (default: the conformant one). */
  record?(record: Json, index: number): Json;
  /** X-Total-Count for `count` results (default: count). */
  totalCount?(count: number): number;
}

const STATUS = ['triggered', 'acknowledged', 'resolved', 'escalated', 'muted'];
const MODELS = ['TX-100', 'TX-200', 'Frostline', 'ColdTrace'];
const MINUTES_PER_DAY = 1440;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An ISO time `minutes` minutes after 2020-01-01, with 28-day months so every date is valid. */
function stamp(minutes: number): string {
  const day = Math.floor(minutes / MINUTES_PER_DAY);
  const rest = minutes % MINUTES_PER_DAY;
  const year = 2020 + Math.floor(day / (12 * 28));
  const month = Math.floor(day / 28) % 12;
  return `${year}-${pad(month + 1)}-${pad((day % 28) + 1)}T${pad(Math.floor(rest / 60))}:${pad(rest % 60)}:00.000Z`;
}

const uuid = (listing: number, i: number) => `0000000${listing}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** Record i of a listing of `count` (0 the newest): created_at strictly descending, so index order is the documented order. */
const BUILD: Record<string, (i: number, count: number) => Json> = {
  '/alert': (i, count) => ({
    id: uuid(1, i),
    created_at: stamp(count - 1 - i),
    status: STATUS[i % STATUS.length],
    carrier_code: `CR-${i.toString(36).toUpperCase()}`,
    excursion_minutes: i % 240,
  }),
  '/sensor': (i, count) => ({
    id: uuid(2, i),
    created_at: stamp(count - 1 - i),
    serial_number: `SN-${i.toString(36).toUpperCase()}`,
    model: MODELS[i % MODELS.length],
    battery_level: i % 101,
    available: i % 3 !== 0,
  }),
};

/** Width of a record's searchable text in a listing's text block: every string field, lower-cased, padded. */
const WIDTH = 128;
const texts = new Map<string, Buffer>();

/**
 * Every record's string fields (what a search looks at, as the kit's model does), lower-cased, one fixed-width
 * slot per record, fields apart by a newline no term holds: one native indexOf finds a term's next record.
 */
function textBlock(path: string, count: number): Buffer {
  const key = `${path}|${count}`;
  let block = texts.get(key);
  if (!block) {
    block = Buffer.alloc(count * WIDTH, '\n');
    for (let i = 0; i < count; i += 1) {
      const text = Object.values(BUILD[path]!(i, count))
        .filter((v): v is string => typeof v === 'string')
        .join('\n')
        .toLowerCase();
      block.write(text, i * WIDTH, 'latin1');
    }
    texts.set(key, block);
  }
  return block;
}

/**
 * A fetch handler serving `counts[path]` records per listing (alerts 1,000,037 by default, so the last page
 * of 100 is partial), with `variant` applied to /alert.
 *
 * @example
 * runContract({ target: 'http://long.test', apiKey: KEY, document: spec.document, fetch: longListing({ variant }) });
 */
export function longListing(options: { counts?: Record<string, number>; variant?: Variant } = {}) {
  const counts: Record<string, number> = { '/alert': 1_000_037, '/sensor': 230, ...options.counts };
  const mock = createApp({ spec, dataset: { seed: 3, counts: { alerts: 5, sensors: 5 } } });
  // Each term's results so far and where the scan stopped: a page needs only the results up to its end.
  const found = new Map<string, { hits: number[]; from: number; done: boolean }>();
  const search = (path: string, term: string, upTo: number) => {
    const key = `${path}|${term}`;
    let state = found.get(key);
    if (!state) {
      state = { hits: [], from: 0, done: false };
      found.set(key, state);
    }
    const block = textBlock(path, counts[path]!);
    const needle = Buffer.from(term.toLowerCase(), 'latin1');
    while (!state.done && state.hits.length < upTo) {
      const at = block.indexOf(needle, state.from);
      if (at < 0) state.done = true;
      else {
        const index = Math.floor(at / WIDTH);
        // A match that runs across two slots is none.
        if (at + needle.length <= (index + 1) * WIDTH) state.hits.push(index);
        state.from = at + needle.length <= (index + 1) * WIDTH ? (index + 1) * WIDTH : at + 1;
      }
    }
    return state;
  };

  return async (request: Request): Promise<Response> => {
    const response = await mock.fetch(request);
    const url = new URL(request.url);
    const build = BUILD[url.pathname];
    if (response.status !== 200 || !build) return response;
    const count = counts[url.pathname]!;
    const variant = url.pathname === '/alert' ? options.variant : undefined;
    const term = url.searchParams.get('search') ?? '';
    const page = Number(url.searchParams.get('page') ?? '1');
    const size = Number(url.searchParams.get('pageSize') ?? '20');
    // Far past the end, (page - 1) * size loses precision: any such page is empty.
    const nominal = (page - 1) * size;
    const start = variant?.start ? variant.start(page, size) : nominal;
    const need = Number.isSafeInteger(nominal) ? Math.max(start, nominal) + 2 * size : 0;
    // A term no latin1 text can hold, or one its slots cannot, finds nothing (what the mock's search would say).
    const latin = Buffer.from(term, 'latin1').toString('latin1') === term && !term.includes('\n') && term.length <= WIDTH;
    const hits = term === '' ? undefined : latin ? search(url.pathname, term, need) : { hits: [], done: true };
    const results = hits ? (hits.done ? hits.hits.length : Number.POSITIVE_INFINITY) : count;
    const recordAt = (n: number) => {
      const index = hits ? hits.hits[n]! : n;
      const record = build(index, count);
      return variant?.record ? variant.record(record, index) : record;
    };
    const slice = (from: number) => {
      const out: Json[] = [];
      const end = Math.min(hits ? hits.hits.length : results, from + size);
      for (let n = Math.max(0, from); n < end; n += 1) out.push(recordAt(n));
      return out;
    };
    let records = Number.isSafeInteger(nominal) ? slice(start) : [];
    if (variant?.records) records = variant.records(records, page, size, results, slice);
    const headers = new Headers(response.headers);
    // A search's count would need all its results: it is sent when they were all found anyway.
    if (Number.isFinite(results)) headers.set('x-total-count', String(variant?.totalCount ? variant.totalCount(results) : results));
    else headers.delete('x-total-count');
    // The mock's Link and ETag describe its own small dataset.
    headers.delete('link');
    headers.delete('etag');
    return new Response(JSON.stringify(records), { status: 200, headers });
  };
}

const FROM = 500_000;

/** Broken variants of a long listing, each with the check that must catch it and the verdict of a default run. */
export const LONG_LISTING_VARIANTS: readonly (Variant & {
  readonly caughtBy: string;
  readonly severity: 'error' | 'warning';
})[] = [
  {
    name: 'excursion_minutes is a string from record 500,000 on',
    caughtBy: 'response_schema_conformance',
    severity: 'error',
    record: (record, index) => (index >= FROM ? { ...record, excursion_minutes: String(record.excursion_minutes) } : record),
  },
  {
    // A keyset cursor compared with <= instead of <: each page begins with the last record of the page before.
    name: 'from record 500,000 on, each page begins with the last record of the page before',
    caughtBy: 'pagination_consistency',
    severity: 'error',
    start(page, size) {
      const nominal = (page - 1) * size;
      const first = Math.ceil(FROM / size) + 1;
      return nominal >= FROM ? nominal - (page - first + 1) : nominal;
    },
  },
  {
    name: 'the last, partial page is dropped (200 [])',
    caughtBy: 'page_size_conformance',
    severity: 'error',
    records: (records, _page, size) => (records.length < size ? [] : records),
  },
  {
    name: 'the page just past the end repeats the last page',
    caughtBy: 'page_past_end',
    severity: 'error',
    records: (records, page, size, count, slice) => {
      const last = Math.max(1, Math.ceil(count / size));
      return page === last + 1 ? slice((last - 1) * size) : records;
    },
  },
  {
    name: 'X-Total-Count is one too high',
    caughtBy: 'total_count_header',
    severity: 'warning',
    totalCount: (count) => count + 1,
  },
];
