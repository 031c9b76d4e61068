import type { Hono } from 'hono';
import type { FetchLike } from '../../../src/contract/client/http-client.ts';
import type { ContractOptions } from '../../../src/contract/run/run-contract.ts';

export type Next = (request: Request) => Promise<Response>;
export type Json = Record<string, unknown>;

/** A deliberate drift from the contract, and the check that must catch it. */
export interface Fault {
  readonly name: string;
  readonly caughtBy: string;
  readonly severity: 'error' | 'warning';
  /** Run options the fault needs to show (a short timeout, a response-time budget). */
  readonly options?: Partial<ContractOptions>;
  handle(request: Request, next: Next): Promise<Response>;
}

export const KEY_HEADER = 'x-api-key';
export const VALID_KEY = 'tempmon-dev-key';

/** A copy of `request` with its URL changed by `edit`. */
export function withUrl(request: Request, edit: (url: URL) => void): Request {
  const url = new URL(request.url);
  edit(url);
  return new Request(url, request);
}

/** A copy of `request` with one header changed. */
export function withHeader(request: Request, name: string, value: string): Request {
  const headers = new Headers(request.headers);
  headers.set(name, value);
  return new Request(request.url, { method: request.method, headers });
}

/** `response` with its JSON body and headers rewritten (only for 200 JSON arrays). */
export async function mapPage(response: Response, edit: (records: Json[], headers: Headers) => unknown): Promise<Response> {
  if (response.status !== 200) return response;
  const headers = new Headers(response.headers);
  const body = edit((await response.json()) as Json[], headers);
  return new Response(JSON.stringify(body), { status: 200, headers });
}

const mapRecords = (edit: (record: Json, i: number) => Json) => (request: Request, next: Next) =>
  next(request).then((r) => mapPage(r, (records) => records.map(edit)));

/** Records start..start+count-1 of the underlying listing for the request's search, read at page size 100. */
export async function slice(request: Request, next: Next, start: number, count: number): Promise<Json[]> {
  if (count <= 0) return [];
  const first = Math.floor(start / 100) + 1;
  // At most two pages of 100 hold a slice of up to 100; counted, since far past 2^53 page + 1 === page.
  const spans = Math.min(2, Math.floor((start + count - 1) / 100) + 2 - first);
  const records: Json[] = [];
  for (let k = 0; k < spans; k += 1) {
    const response = await next(
      withUrl(request, (url) => {
        url.searchParams.set('page', String(first + k));
        url.searchParams.set('pageSize', '100');
      }),
    );
    records.push(...((await response.json()) as Json[]));
  }
  const offset = start - (first - 1) * 100;
  return records.slice(offset, offset + count);
}

/** Serves page k of size n from records (k-1)n + shift, which overlaps (-1) or skips (+1) records. */
const shiftedPages = (shift: number) => async (request: Request, next: Next) => {
  const url = new URL(request.url);
  const page = Number(url.searchParams.get('page') ?? '1');
  const size = Number(url.searchParams.get('pageSize') ?? '20');
  const response = await next(request);
  if (response.status !== 200 || page <= 1 || !Number.isInteger(page) || !Number.isInteger(size)) return response;
  const records = await slice(request, next, Math.max(0, (page - 1) * size + shift), size);
  return new Response(JSON.stringify(records), { status: 200, headers: response.headers });
};

/** `request` with the key taken from the first of the cookies `names` when it carries no key header. */
function keyFromCookie(request: Request, names: readonly string[]): Request {
  if (request.headers.get(KEY_HEADER)) return request;
  const cookies = new Map(
    (request.headers.get('cookie') ?? '')
      .split(/;\s*/)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const value = names.map((name) => cookies.get(name)).find((v) => v !== undefined);
  return value === undefined ? request : withHeader(request, KEY_HEADER, decodeURIComponent(value));
}

let flip = 0;

/** The faults the contract kit must catch, each by the check named. */
export const FAULTS: readonly Fault[] = [
  {
    name: 'wrong field type',
    caughtBy: 'response_schema_conformance',
    severity: 'error',
    handle: mapRecords((r) => ({
      ...r,
      ...(r.min_temp !== undefined ? { min_temp: String(r.min_temp) } : {}),
      ...(r.battery_level !== undefined ? { battery_level: `${String(r.battery_level)}%` } : {}),
    })),
  },
  {
    name: 'bad uuid',
    caughtBy: 'response_schema_conformance',
    severity: 'error',
    handle: mapRecords((r) => ({ ...r, id: String(r.id).slice(0, 8) })),
  },
  {
    name: 'bad date-time',
    caughtBy: 'response_schema_conformance',
    severity: 'error',
    handle: mapRecords((r) => ({ ...r, updated_at: new Date(String(r.updated_at)).toUTCString() })),
  },
  {
    name: 'object envelope instead of an array',
    caughtBy: 'response_schema_conformance',
    severity: 'error',
    handle: (request, next) => next(request).then((r) => mapPage(r, (records) => ({ data: records, total: records.length }))),
  },
  {
    name: 'wrong content type',
    caughtBy: 'content_type_conformance',
    severity: 'error',
    handle: (request, next) =>
      next(request).then((r) =>
        mapPage(r, (records, headers) => {
          headers.set('content-type', 'text/plain');
          return records;
        }),
      ),
  },
  {
    name: 'auth ignored',
    caughtBy: 'ignored_auth',
    severity: 'error',
    handle: (request, next) => next(request.headers.get(KEY_HEADER) ? request : withHeader(request, KEY_HEADER, VALID_KEY)),
  },
  {
    name: 'any key accepted',
    caughtBy: 'ignored_auth',
    severity: 'error',
    handle: (request, next) => next(request.headers.get(KEY_HEADER) ? withHeader(request, KEY_HEADER, VALID_KEY) : request),
  },
  {
    // Session middleware in front of the API: a cookie named after the header stands in for it.
    name: 'the key read from a cookie named after the header',
    caughtBy: 'ignored_auth',
    severity: 'warning',
    handle: (request, next) => next(keyFromCookie(request, [KEY_HEADER])),
  },
  {
    // A gateway that also reads browsers' credentials from a generic cookie.
    name: 'the key read from a session cookie',
    caughtBy: 'ignored_auth',
    severity: 'warning',
    handle: (request, next) => next(keyFromCookie(request, ['session'])),
  },
  {
    name: 'pageSize ignored',
    caughtBy: 'page_size_conformance',
    severity: 'error',
    handle: (request, next) => next(withUrl(request, (url) => url.searchParams.delete('pageSize'))),
  },
  {
    name: 'limits not enforced',
    caughtBy: 'negative_data_rejection',
    severity: 'error',
    handle: (request, next) =>
      next(
        withUrl(request, (url) => {
          for (const [name, max] of [
            ['page', Number.MAX_SAFE_INTEGER],
            ['pageSize', 100],
          ] as const) {
            const value = url.searchParams.get(name);
            if (value === null) continue;
            const n = Math.trunc(Number(value));
            if (Number.isNaN(n)) url.searchParams.delete(name);
            else url.searchParams.set(name, String(Math.min(max, Math.max(1, n))));
          }
        }),
      ),
  },
  {
    name: '500 on bad input',
    caughtBy: 'not_a_server_error',
    severity: 'error',
    handle: (request, next) => next(request).then((r) => (r.status === 400 ? new Response('Internal error', { status: 500 }) : r)),
  },
  { name: 'overlapping pages', caughtBy: 'pagination_consistency', severity: 'error', handle: shiftedPages(-1) },
  { name: 'skipping pages', caughtBy: 'pagination_consistency', severity: 'error', handle: shiftedPages(1) },
  {
    name: 'unstable order',
    caughtBy: 'stable_order',
    severity: 'error',
    handle: (request, next) =>
      next(request).then((r) =>
        mapPage(r, (records) => {
          flip += 1;
          return flip % 2 === 0 ? [...records].reverse() : records;
        }),
      ),
  },
  {
    name: 'search ignored',
    caughtBy: 'search_no_match',
    severity: 'error',
    handle: (request, next) => next(withUrl(request, (url) => url.searchParams.delete('search'))),
  },
  {
    name: 'undocumented field',
    caughtBy: 'undocumented_fields',
    severity: 'warning',
    handle: mapRecords((r) => ({ ...r, internal_note: 'do not ship' })),
  },
  {
    name: 'battery level in millivolts (an assumed scale)',
    caughtBy: 'response_schema_conformance',
    severity: 'warning',
    handle: mapRecords((r) => (r.battery_level === undefined ? r : { ...r, battery_level: 2900 + Number(r.battery_level) * 12 })),
  },
  {
    name: 'null instead of an omitted value',
    caughtBy: 'response_schema_conformance',
    severity: 'warning',
    // Alert's optional ids, on the alert listing only: another listing's schema has other fields.
    handle: (request, next) =>
      new URL(request.url).pathname.endsWith('/alert')
        ? mapRecords((r) => ({ ...r, site_id: r.site_id ?? null, delivery_id: r.delivery_id ?? null }))(request, next)
        : next(request),
  },
  {
    name: 'X-Total-Count off by one',
    caughtBy: 'total_count_header',
    severity: 'warning',
    handle: (request, next) =>
      next(request).then((r) =>
        mapPage(r, (records, headers) => {
          headers.set('x-total-count', String(Number(headers.get('x-total-count')) + 1));
          return records;
        }),
      ),
  },
  {
    name: 'Link next skips a page',
    caughtBy: 'link_header',
    severity: 'warning',
    handle: (request, next) =>
      next(request).then((r) =>
        mapPage(r, (records, headers) => {
          const link = headers.get('link') ?? '';
          headers.set(
            'link',
            link.replace(/page=(\d+)([^>]*>; rel="next")/, (_, p: string, rest: string) => `page=${Number(p) + 1}${rest}`),
          );
          return records;
        }),
      ),
  },
  {
    name: '422 instead of 400',
    caughtBy: 'status_code_conformance',
    severity: 'warning',
    handle: (request, next) =>
      next(request).then((r) => (r.status === 400 ? new Response(r.body, { status: 422, headers: r.headers }) : r)),
  },
  { name: 'sorted oldest first', caughtBy: 'documented_order', severity: 'warning', handle: shiftedOrder() },
  {
    name: 'search is case-sensitive',
    caughtBy: 'search_case_insensitive',
    severity: 'warning',
    handle: async (request, next) => {
      const term = new URL(request.url).searchParams.get('search');
      const response = await next(request);
      if (!term) return response;
      return mapPage(response, (records) => records.filter((r) => Object.values(r).some((v) => typeof v === 'string' && v.includes(term))));
    },
  },
];

/** Reverses the whole listing: page k of the broken server is page k of the real one read from the end. */
function shiftedOrder() {
  return async (request: Request, next: Next) => {
    const url = new URL(request.url);
    const response = await next(request);
    if (response.status !== 200) return response;
    const total = Number(response.headers.get('x-total-count'));
    const page = Number(url.searchParams.get('page') ?? '1');
    const size = Number(url.searchParams.get('pageSize') ?? '20');
    const start = (page - 1) * size;
    const from = Math.max(0, total - start - size);
    const count = Math.max(0, Math.min(size, total - start));
    const records = (await slice(request, next, from, count)).reverse();
    return new Response(JSON.stringify(records), { status: 200, headers: response.headers });
  };
}

/** The mock app with `fault` applied, as a fetch function for the contract kit. */
export function brokenMock(app: Hono, fault: Fault): FetchLike {
  const next: Next = async (request) => app.fetch(request);
  return (request) => fault.handle(request, next);
}
