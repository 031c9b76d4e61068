// In-process targets whose data lives while the kit reads them, and broken ones that look alike. Time is
// counted in requests, not milliseconds, so every run of a test sees the same changes at the same requests:
// it moves on when a request arrives after an answer went out, so requests sent at once share a moment.
// Auth, validation and errors are the mock's own; a 200 listing's body and X-Total-Count are then the page
// of the target's current records (search: a case-insensitive substring of any string field, as the spec assumes).
import { generateDataset } from '../../../src/fixtures/generate-dataset.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { linkHeader } from '../../../src/server/paginate.ts';
import { LISTINGS, spec } from '../../helpers.ts';

type Json = Record<string, unknown>;

/** The records a listing holds at moment `t`, newest first, for request number `n` (which replica answers). */
export type Source = (path: string, t: number, n: number) => readonly Json[];

/** The listings whose data lives; any other listing of the spec is the mock's, still. */
const KEYS: Record<string, string> = { '/alert': 'alerts', '/sensor': 'sensors' };
/**
 * The spec's other listings' paths. Their requests take no moment and no request number, so the changes come at
 * the same requests to ours however many listings the spec has (the kit interleaves every listing's requests).
 */
const OTHERS = new Set(LISTINGS.map((op) => op.path).filter((path) => !KEYS[path]));
/** The listing path a road to it spells (/SITE, //site, /site/, /site;x, /%73ite): its first segment. */
const listingOf = (pathname: string) =>
  `/${decodeURIComponent(pathname)
    .toLowerCase()
    .split(/[/;]/)
    .find((s) => s !== '')}`;
const dataset = generateDataset(spec.document, { seed: 12, counts: { alerts: 1000, sensors: 60 } }) as Record<string, Json[]>;
/** The newest `HIDDEN` alerts arrive one by one; the rest are there from the start. */
const HIDDEN = 800;

const contains = (record: Json, term: string) =>
  term === '' ||
  Object.values(record).some((value) =>
    (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.toLowerCase().includes(term.toLowerCase())),
  );

/** A target answering from `source`, with `edit` to break how a page is served. */
export function liveTarget(
  source: Source,
  edit: {
    page?: (records: readonly Json[], page: number, size: number, n: number) => readonly Json[];
    total?: (count: number, term: string) => number;
    /** Sends Link as the mock does, for the records at the moment, its last page moved by `lastOff`. */
    links?: { readonly lastOff: number };
    /**
     * A search index refreshed apart from the data: a search at moment t finds what the records held at
     * `indexed(t)` (its results as they are now, so an edit shows in what is returned but not in what is found).
     */
    indexed?: (t: number) => number;
    /** The moment of a request from a clock (real time, say) instead of the count of requests. */
    clock?: () => number;
  } = {},
) {
  const mock = createApp({ spec, dataset: { seed: 3, counts: { alerts: 5, sensors: 5 } } });
  let n = 0;
  let t = 0;
  let answered = true;
  return async (request: Request): Promise<Response> => {
    if (OTHERS.has(listingOf(new URL(request.url).pathname))) return mock.fetch(request);
    n += 1;
    if (answered) t += 1;
    answered = false;
    const [at, number] = [edit.clock ? edit.clock() : t, n];
    const response = await mock.fetch(request);
    answered = true;
    const url = new URL(request.url);
    if (response.status !== 200 || !KEYS[url.pathname]) return response;
    const term = url.searchParams.get('search') ?? '';
    const now = source(url.pathname, at, number);
    const indexedAt = term !== '' && edit.indexed ? edit.indexed(at) : at;
    const hits = new Set(
      source(url.pathname, indexedAt, number)
        .filter((r) => contains(r, term))
        .map((r) => r.id),
    );
    const found = indexedAt === at ? now.filter((r) => contains(r, term)) : now.filter((r) => hits.has(r.id));
    const page = Number(url.searchParams.get('page') ?? '1');
    const size = Number(url.searchParams.get('pageSize') ?? '20');
    const served = edit.page ? edit.page(found, page, size, number) : found.slice((page - 1) * size, page * size);
    const headers = new Headers(response.headers);
    headers.set('x-total-count', String(edit.total ? edit.total(found.length, term) : found.length));
    headers.delete('link');
    headers.delete('etag');
    if (edit.links) {
      const last = Math.max(1, Math.ceil(found.length / size)) + edit.links.lastOff;
      headers.set(
        'link',
        linkHeader(url, { page: 'page', pageSize: 'pageSize' }, ['search', 'page', 'pageSize'], { page, pageSize: size, last })!,
      );
    }
    return new Response(JSON.stringify(served), { status: 200, headers });
  };
}

/** Alerts with a new one at the head every `every` moments (up to HIDDEN new ones); sensors unchanged. */
export const growing =
  (every: number): Source =>
  (path, t) =>
    path === '/alert' ? dataset.alerts!.slice(Math.max(0, HIDDEN - Math.floor(t / every))) : dataset.sensors!;

/** A flood's alerts: 500 there from the start, up to 2,500 more arriving. */
let floodData: Json[] | undefined;

/**
 * Alerts arriving `perMoment` at a time (up to 2,500 of them), more than a page of 100 between two reads of the head
 * far apart: a busy service's listing read by a run that keeps to its own checks.
 */
export const flooding =
  (perMoment: number): Source =>
  (path, t) => {
    if (path !== '/alert') return dataset.sensors!;
    floodData ??= generateDataset(spec.document, { seed: 13, counts: { alerts: 3000, sensors: 1 } }).alerts as Json[];
    return floodData.slice(Math.max(0, 2500 - perMoment * t));
  };

/**
 * A window of the 200 newest alerts, a new one at the head every `every` moments and the oldest leaving at the
 * tail (as `serve --live` does): the count never changes, the records do.
 */
export const sliding =
  (every: number): Source =>
  (path, t) => {
    if (path !== '/alert') return dataset.sensors!;
    const from = Math.max(0, HIDDEN - Math.floor(t / every));
    return dataset.alerts!.slice(from, from + dataset.alerts!.length - HIDDEN);
  };

/**
 * The alerts of the start, one from the middle of the listing resolved and gone every `every` moments (up to 100),
 * as a monitoring service drops alerts once they are dealt with: records leave from anywhere, not only the tail.
 */
export const resolving =
  (every: number): Source =>
  (path, t) => {
    if (path !== '/alert') return dataset.sensors!;
    const alerts = dataset.alerts!.slice(HIDDEN);
    const gone = Math.min(100, Math.floor(t / every));
    return [...alerts.slice(0, 50), ...alerts.slice(50 + gone)];
  };

/** The alerts of the start, one of which has its updated_at moved every `every` moments. */
export const editing =
  (every: number): Source =>
  (path, t) => {
    if (path !== '/alert') return dataset.sensors!;
    const alerts = dataset.alerts!.slice(HIDDEN);
    const edited = { ...alerts[7]!, updated_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(t / every) * 60_000).toISOString() };
    return [...alerts.slice(0, 7), edited, ...alerts.slice(8)];
  };

/** The alerts of the start, never changing. */
export const still: Source = (path) => (path === '/alert' ? dataset.alerts!.slice(HIDDEN) : dataset.sensors!);

/** A page served in a new order each time (rows of the right page, but no ORDER BY within it). */
export const shuffledPages = {
  page: (records: readonly Json[], page: number, size: number, n: number) => {
    const rows = records.slice((page - 1) * size, page * size);
    // A rotation by the request number: a new order on every request, the same rows.
    const by = rows.length > 1 ? n % rows.length : 0;
    return [...rows.slice(by), ...rows.slice(0, by)];
  },
};

/** Pages after the first start one record early: each overlaps the page before by one. */
export const overlappingPages = {
  page: (records: readonly Json[], page: number, size: number) => {
    const start = Math.max(0, (page - 1) * size - (page > 1 ? 1 : 0));
    return records.slice(start, start + size);
  },
};

/**
 * A response cache keyed by path, page and pageSize, not search: whichever request fills an entry first, its
 * answer is replayed to every request with the same page and size, search or not.
 */
export function searchBlindCache(target: (request: Request) => Promise<Response>) {
  const cache = new Map<string, { body: string; headers: Headers }>();
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const response = await target(request);
    if (response.status !== 200) return response;
    const key = `${url.pathname}|${url.searchParams.get('page')}|${url.searchParams.get('pageSize')}`;
    let hit = cache.get(key);
    if (!hit) {
      hit = { body: await response.text(), headers: new Headers(response.headers) };
      cache.set(key, hit);
    }
    return new Response(hit.body, { status: 200, headers: hit.headers });
  };
}

/** Two replicas in turn, request by request, the second one new alert behind the first. */
export const replicas =
  (every: number): Source =>
  (path, t, n) =>
    path === '/alert' ? growing(every)(path, t, n).slice(n % 2) : dataset.sensors!;

/** Two replicas in turn whose alerts differ in the middle (one lost a record the other has): not lag. */
export const divergentReplicas: Source = (path, _t, n) => {
  if (path !== '/alert') return dataset.sensors!;
  const alerts = dataset.alerts!.slice(HIDDEN);
  return n % 2 ? alerts : [...alerts.slice(0, 5), ...alerts.slice(6)];
};

/**
 * Answers alternating request by request between no alerts and all of them (as a server leaking one
 * connection's empty search into its later requests does): versions that share no record are not replicas.
 */
export const emptyOrAll: Source = (path, _t, n) => (path === '/alert' ? (n % 2 ? [] : dataset.alerts!.slice(HIDDEN)) : dataset.sensors!);

/**
 * Two replicas in turn, alert request by alert request, the second one alert behind and stuck there: nothing
 * arrives, so the lag is no lag in time (replication that stopped), not a replica catching up.
 */
export function stuckReplica(): Source {
  let alertRequests = 0;
  let last = 0;
  return (path, _t, n) => {
    if (path !== '/alert') return dataset.sensors!;
    // The source is read more than once per request: count requests, not reads.
    if (n !== last) alertRequests += 1;
    last = n;
    return dataset.alerts!.slice(HIDDEN + (alertRequests % 2));
  };
}
