// Faults off the fixed points the scenario checks probe, and one for each check no other fault shows
// firing: the generated exploration, the auth look-alikes and the evidence rules must catch these.
import { KEY_HEADER, VALID_KEY, mapPage, withHeader, withUrl, type Fault, type Json, type Next } from './broken-mocks.ts';

const params = (request: Request) => new URL(request.url).searchParams;

/** A server that refuses any other key than the valid one with a 401 problem+json whose detail `says` of the key. */
export const refusing =
  (says: (key: string | null) => string) =>
  (request: Request, next: Next): Promise<Response> => {
    const key = request.headers.get(KEY_HEADER);
    if (key === VALID_KEY) return next(request);
    const body = JSON.stringify({ title: 'Unauthorized', status: 401, detail: says(key) });
    return Promise.resolve(new Response(body, { status: 401, headers: { 'content-type': 'application/problem+json' } }));
  };

/** Every record the mock holds for the request's other parameters, read without search at size 100. */
export async function allRecords(request: Request, next: Next): Promise<Json[]> {
  const records: Json[] = [];
  for (let page = 1; page < 1_000; page += 1) {
    const response = await next(
      withUrl(request, (url) => {
        url.searchParams.delete('search');
        url.searchParams.set('page', String(page));
        url.searchParams.set('pageSize', '100');
      }),
    );
    const batch = (await response.json()) as Json[];
    records.push(...batch);
    if (batch.length < 100) break;
  }
  return records;
}

/** The request with page and pageSize as `read` reads them (undefined: as sent). */
const readIntegers = (request: Request, read: (value: string) => number | undefined) =>
  withUrl(request, (url) => {
    for (const name of ['page', 'pageSize']) {
      const value = url.searchParams.get(name);
      const number = value === null ? undefined : read(value);
      if (number !== undefined) url.searchParams.set(name, String(number));
    }
  });

/** The strings a search looks at. */
const strings = (record: Json) =>
  Object.values(record)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v): v is string => typeof v === 'string');

export const UNLISTED_FAULTS: readonly Fault[] = [
  {
    name: 'a body that never ends for pageSize=7',
    caughtBy: 'response_received',
    severity: 'error',
    options: { timeoutMs: 300 },
    handle: async (request, next) => {
      if (params(request).get('pageSize') !== '7') return next(request);
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('[{"id":')) });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    },
  },
  {
    name: 'a slow page of one',
    caughtBy: 'max_response_time',
    severity: 'error',
    options: { maxResponseTimeMs: 40 },
    handle: async (request, next) => {
      if (params(request).get('pageSize') === '1') await new Promise((r) => setTimeout(r, 120));
      return next(request);
    },
  },
  {
    name: 'a default page size of 10',
    caughtBy: 'default_page_size',
    severity: 'warning',
    handle: (request, next) =>
      next(params(request).has('pageSize') ? request : withUrl(request, (url) => url.searchParams.set('pageSize', '10'))),
  },
  {
    name: 'an empty search finds nothing',
    caughtBy: 'empty_search_no_filter',
    severity: 'warning',
    handle: (request, next) =>
      next(
        params(request).get('search') === '' ? withUrl(request, (url) => url.searchParams.set('search', 'zq-nothing-has-this')) : request,
      ),
  },
  {
    name: 'pages past the end repeat the last page',
    caughtBy: 'page_past_end',
    severity: 'error',
    handle: async (request, next) => {
      const response = await next(request);
      const size = Number(params(request).get('pageSize') ?? '20');
      const total = Number(response.headers.get('x-total-count'));
      if (response.status !== 200 || total === 0 || Number(params(request).get('page') ?? '1') <= Math.ceil(total / size)) return response;
      return next(withUrl(request, (url) => url.searchParams.set('page', String(Math.ceil(total / size)))));
    },
  },
  {
    name: 'a search drops its first result',
    caughtBy: 'search_finds_record',
    severity: 'warning',
    handle: (request, next) => next(request).then((r) => (params(request).get('search') ? mapPage(r, (records) => records.slice(1)) : r)),
  },
  {
    name: '% and _ act as SQL wildcards',
    caughtBy: 'search_special_terms',
    severity: 'error',
    handle: (request, next) =>
      next(/[%_]/.test(params(request).get('search') ?? '') ? withUrl(request, (url) => url.searchParams.delete('search')) : request),
  },
  {
    // A regular expression that matches the empty string (.*) matches every record.
    name: 'the term is run as a regular expression',
    caughtBy: 'search_special_terms',
    severity: 'error',
    handle: (request, next) => {
      const term = params(request).get('search') ?? '';
      let everything = false;
      try {
        everything = term !== '' && new RegExp(term, 'i').test('');
      } catch {
        // Not a valid expression: searched literally.
      }
      return next(everything ? withUrl(request, (url) => url.searchParams.delete('search')) : request);
    },
  },
  {
    // JSON.parse(term) then a property of null: only the hazard terms send these.
    name: 'search=null, undefined, NaN, true or false answers 500',
    caughtBy: 'not_a_server_error',
    severity: 'error',
    options: { checks: ['not_a_server_error', 'search_special_terms'] },
    handle: (request, next) =>
      ['null', 'undefined', 'NaN', 'true', 'false'].includes(params(request).get('search') ?? '')
        ? Promise.resolve(new Response('TypeError: Cannot read properties of null', { status: 500 }))
        : next(request),
  },
  {
    // Number('1e2') is 100, Number('0x10') 16: a lenient parser accepts what the spec's integer refuses.
    name: 'page and pageSize read with Number()',
    caughtBy: 'negative_data_rejection',
    severity: 'error',
    handle: (request, next) => next(readIntegers(request, (v) => (v.trim() !== '' && Number.isInteger(Number(v)) ? Number(v) : undefined))),
  },
  {
    name: 'a leading zero read as octal (page=010 is page 8)',
    caughtBy: 'negative_data_rejection',
    severity: 'error',
    handle: (request, next) => next(readIntegers(request, (v) => (/^0[0-7]+$/.test(v) ? Number.parseInt(v, 8) : undefined))),
  },
  {
    // An input "sanitizer" that drops a term with punctuation, on paged requests only (the fixed probes send
    // none): only the generated exploration's hazard terms show it.
    name: 'a term with punctuation is dropped when pageSize is given',
    caughtBy: 'explore_pages',
    severity: 'error',
    handle: (request, next) =>
      next(
        params(request).has('pageSize') && /[^\p{L}\p{N}\s]/u.test(params(request).get('search') ?? '')
          ? withUrl(request, (url) => url.searchParams.delete('search'))
          : request,
      ),
  },
  {
    name: 'page is ignored unless pageSize is also given',
    caughtBy: 'pagination_consistency',
    severity: 'error',
    handle: (request, next) => next(params(request).has('pageSize') ? request : withUrl(request, (url) => url.searchParams.delete('page'))),
  },
  {
    // A router that strips the trailing slash after the auth middleware matched the path exactly.
    name: 'GET /alert/ (a trailing slash) serves records with no key',
    caughtBy: 'other_roads_to_data',
    severity: 'error',
    handle: (request, next) => {
      const url = new URL(request.url);
      if (!url.pathname.endsWith('/') || url.pathname === '/') return next(request);
      url.pathname = url.pathname.slice(0, -1);
      return next(withHeader(new Request(url, { headers: request.headers }), KEY_HEADER, VALID_KEY));
    },
  },
  {
    // A CORS layer lets preflights past the auth middleware, and the router hands OPTIONS to the GET handler.
    name: 'OPTIONS /alert answered by the GET handler, with no key',
    caughtBy: 'other_roads_to_data',
    severity: 'error',
    handle: (request, next) =>
      request.method === 'OPTIONS'
        ? next(withHeader(new Request(request.url, { headers: request.headers }), KEY_HEADER, VALID_KEY))
        : next(request),
  },
  {
    // A highlighter that finds the term in the lowered text and cuts the original there: İ lowers to two code
    // points, so the index runs past the end and the server throws.
    name: 'a 500 for a term holding İ (an index on the lowered text past the original)',
    caughtBy: 'not_a_server_error',
    severity: 'error',
    // The hazard terms are what sends it.
    options: { checks: ['not_a_server_error', 'search_special_terms'] },
    handle: (request, next) =>
      params(request).get('search')?.includes('İ')
        ? Promise.resolve(new Response('RangeError: offset out of range', { status: 500 }))
        : next(request),
  },
  {
    // An error message written to help: it hands the key to anyone who asks.
    name: 'a 401 for a wrong key that names the right one',
    caughtBy: 'no_secret_in_answers',
    severity: 'error',
    options: { checks: ['no_secret_in_answers', 'ignored_auth'] },
    handle: refusing((key) => `key ${JSON.stringify(key)} is not valid; expected ${VALID_KEY}`),
  },
  {
    name: 'X-Total-Count with words in it',
    caughtBy: 'response_headers_conformance',
    severity: 'warning',
    handle: (request, next) =>
      next(request).then((r) =>
        mapPage(r, (records, headers) => {
          headers.set('x-total-count', `${headers.get('x-total-count')} records`);
          return records;
        }),
      ),
  },
  {
    name: 'pageSize 11..99 gives one record too few',
    caughtBy: 'explore_pages',
    severity: 'error',
    handle: (request, next) =>
      next(request).then((r) => {
        const size = Number(params(request).get('pageSize'));
        return size > 10 && size < 100 ? mapPage(r, (records) => (records.length === size ? records.slice(0, -1) : records)) : r;
      }),
  },
  {
    name: 'search matches whole values only',
    caughtBy: 'explore_search',
    severity: 'warning',
    handle: async (request, next) => {
      const term = params(request).get('search');
      const real = await next(request);
      if (!term || real.status !== 200) return real;
      const hits = (await allRecords(request, next)).filter((r) => strings(r).some((s) => s.toLowerCase() === term.toLowerCase()));
      const page = Number(params(request).get('page') ?? '1');
      const size = Number(params(request).get('pageSize') ?? '20');
      const headers = new Headers(real.headers);
      headers.set('x-total-count', String(hits.length));
      headers.delete('link');
      return new Response(JSON.stringify(hits.slice((page - 1) * size, page * size)), { status: 200, headers });
    },
  },
  {
    name: 'X-Total-Count counts the page after page 1',
    caughtBy: 'explore_metadata',
    severity: 'warning',
    handle: (request, next) =>
      next(request).then((r) =>
        Number(params(request).get('page') ?? '1') > 1
          ? mapPage(r, (records, headers) => {
              headers.set('x-total-count', String(records.length));
              return records;
            })
          : r,
      ),
  },
  {
    name: 'no key needed when searching',
    caughtBy: 'explore_pages',
    severity: 'error',
    handle: (request, next) => next(params(request).get('search') ? withHeader(request, KEY_HEADER, VALID_KEY) : request),
  },
  {
    name: 'the key compared by its first 8 characters',
    caughtBy: 'ignored_auth',
    severity: 'error',
    handle: (request, next) => {
      const key = request.headers.get(KEY_HEADER);
      return next(key && key.slice(0, 8) === VALID_KEY.slice(0, 8) ? withHeader(request, KEY_HEADER, VALID_KEY) : request);
    },
  },
  {
    name: 'the key compared ignoring case',
    caughtBy: 'ignored_auth',
    severity: 'error',
    handle: (request, next) => {
      const key = request.headers.get(KEY_HEADER);
      return next(key?.toLowerCase() === VALID_KEY.toLowerCase() ? withHeader(request, KEY_HEADER, VALID_KEY) : request);
    },
  },
  {
    // "Scheme value" parsing: the last word of the header is taken as the key.
    name: 'the key header read as its last word ("abc <key>" accepted)',
    caughtBy: 'ignored_auth',
    severity: 'warning',
    handle: (request, next) => {
      const last = request.headers
        .get(KEY_HEADER)
        ?.trim()
        .split(/[\s,]+/)
        .at(-1);
      return next(last === VALID_KEY ? withHeader(request, KEY_HEADER, VALID_KEY) : request);
    },
  },
  {
    // A checksum of the characters: any order of the key's characters passes.
    name: "the key compared by its characters' sum",
    caughtBy: 'ignored_auth',
    severity: 'error',
    handle: (request, next) => {
      const sum = (text: string) => [...text].reduce((total, c) => total + c.charCodeAt(0), 0);
      const key = request.headers.get(KEY_HEADER) ?? '';
      return next(key.length === VALID_KEY.length && sum(key) === sum(VALID_KEY) ? withHeader(request, KEY_HEADER, VALID_KEY) : request);
    },
  },
  {
    // The header's bytes decoded as UTF-8, and look-alike letters of other scripts folded to Latin ones.
    name: 'Unicode look-alikes in the key folded to Latin letters',
    caughtBy: 'ignored_auth',
    severity: 'error',
    handle: (request, next) => {
      const raw = request.headers.get(KEY_HEADER) ?? '';
      const folded = Buffer.from(raw, 'latin1')
        .toString('utf8')
        .replace(/[асеорхуіΑΒΕΟ]/g, (c) => 'aceopxyiABEO'['асеорхуіΑΒΕΟ'.indexOf(c)]!);
      return next(folded === VALID_KEY ? withHeader(request, KEY_HEADER, VALID_KEY) : request);
    },
  },
  {
    name: 'any Authorization header accepted instead of the key',
    caughtBy: 'ignored_auth',
    severity: 'error',
    handle: (request, next) =>
      next(!request.headers.get(KEY_HEADER) && request.headers.get('authorization') ? withHeader(request, KEY_HEADER, VALID_KEY) : request),
  },
  {
    name: 'unknown query parameters refused',
    caughtBy: 'positive_data_acceptance',
    severity: 'warning',
    handle: (request, next) =>
      [...params(request).keys()].every((name) => ['search', 'page', 'pageSize'].includes(name))
        ? next(request)
        : Promise.resolve(
            Response.json(
              { title: 'Unknown parameter', status: 400 },
              { status: 400, headers: { 'content-type': 'application/problem+json' } },
            ),
          ),
  },
  {
    name: 'pageSize above 101 capped at 100',
    caughtBy: 'negative_data_rejection',
    severity: 'error',
    handle: (request, next) => {
      const size = Number(params(request).get('pageSize'));
      return next(Number.isInteger(size) && size > 101 ? withUrl(request, (url) => url.searchParams.set('pageSize', '100')) : request);
    },
  },
];
