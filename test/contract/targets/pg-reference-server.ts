// A reference server on PostgreSQL, written as a backend team would from the spec alone: a table per listing
// (the record as jsonb, beside the columns it is sorted by), parameterised SQL, a search by ILIKE with %, _ and \
// escaped over the string fields, ORDER BY created_at DESC, id ASC, LIMIT/OFFSET, a count with the same WHERE,
// a statement timeout, problem+json errors. `variant` swaps in one classic bug, to prove the kit catches it.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenAPIObject, SchemaObject } from 'openapi3-ts/oas31';
import type pg from 'pg';
import { defaultPageSize, largestPageSize } from '../../../src/contract/model/listing-query.ts';
import { listingParameters } from '../../../src/spec/listing-parameters.ts';
import { listListings } from '../../../src/spec/operations.ts';
import { resolveRef } from '../../../src/spec/resolve-ref.ts';

/** A classic bug, or none. */
export type PgVariant = 'conformant' | 'unescaped-like' | 'row-text' | 'count-ignores-search' | 'null-optional' | 'hang';

/** One listing: its path, table, and the fields a search looks in (string fields, and arrays of strings). */
export interface PgListing {
  readonly path: string;
  readonly table: string;
  readonly strings: readonly string[];
  readonly stringArrays: readonly string[];
  /** Every field of the schema, for the variant that sends null for what a record lacks. */
  readonly fields: readonly string[];
  /** The header carrying the key, and the page size's default and most, as the spec states them. */
  readonly keyHeader: string;
  readonly defaultSize: number;
  readonly maxSize: number;
}

/**
 * The listings as the spec describes them: path, table, the string fields a search looks in, key header, page sizes.
 *
 * @example
 * const listings = pgListings(loadSpec().document); // [{ path: '/alert', table: 'alerts', ... }, ...]
 */
export function pgListings(document: OpenAPIObject): PgListing[] {
  return listListings(document).map((op) => {
    const parameters = listingParameters(op);
    const schema = resolveRef<SchemaObject>(document, document.components!.schemas![op.itemSchema]!);
    const properties = Object.entries(schema.properties ?? {}).map(([name, p]) => [name, resolveRef<SchemaObject>(document, p)] as const);
    return {
      path: op.path,
      table: op.collection.key,
      strings: properties.filter(([, p]) => p.type === 'string').map(([name]) => name),
      stringArrays: properties
        .filter(([, p]) => p.type === 'array' && resolveRef<SchemaObject>(document, p.items ?? {}).type === 'string')
        .map(([name]) => name),
      fields: properties.map(([name]) => name),
      keyHeader: op.apiKeyHeader!,
      defaultSize: defaultPageSize(parameters),
      maxSize: largestPageSize(parameters),
    };
  });
}

/** The request shape the `hang` variant runs pg_sleep for: a search starting zq (the kit's terms nothing holds). */
const hangs = (term: string) => term.startsWith('zq');

/**
 * Creates the tables and loads `records` per listing (in one transaction, 1,000 rows a statement).
 *
 * @example
 * await loadPg(pool, listings, { alerts: dataset.alerts, sensors: dataset.sensors });
 */
export async function loadPg(
  pool: pg.Pool,
  listings: readonly PgListing[],
  records: Readonly<Record<string, readonly Record<string, unknown>[]>>,
) {
  for (const listing of listings) {
    await pool.query(`DROP TABLE IF EXISTS ${listing.table}`);
    await pool.query(`CREATE TABLE ${listing.table} (id text PRIMARY KEY, created_at timestamptz NOT NULL, doc jsonb NOT NULL)`);
    await pool.query(`CREATE INDEX ON ${listing.table} (created_at DESC, id)`);
    const rows = records[listing.table] ?? [];
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await pool.query(
        `INSERT INTO ${listing.table} (id, created_at, doc) SELECT r->>'id', (r->>'created_at')::timestamptz, r FROM jsonb_array_elements($1::jsonb) r`,
        [JSON.stringify(chunk)],
      );
    }
  }
}

/**
 * Serves the listings from `pool` on 127.0.0.1 (a free port); `key` is the one valid API key.
 *
 * @example
 * const server = await servePg({ pool, listings, key: 'tempmon-dev-key', variant: 'conformant' });
 * await server.close();
 */
export async function servePg(options: {
  readonly pool: pg.Pool;
  readonly listings: readonly PgListing[];
  readonly key: string;
  readonly variant: PgVariant;
  /** Terms longer than this match nothing, answered at once (the guard a team adds); absent: no guard. */
  readonly longestValue?: number;
}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    answer(options, request, response).catch((error: unknown) => {
      const timedOut = (error as { code?: string }).code === '57014';
      problem(response, 500, timedOut ? 'The query took too long' : 'Internal Server Error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function problem(response: ServerResponse, status: number, title: string, detail?: string) {
  if (response.headersSent) return void response.destroy();
  response.writeHead(status, { 'content-type': 'application/problem+json' });
  // `instance`: the request's URL as sent (a common choice; with the key in the query, an echo of it).
  const instance = response.req?.url;
  response.end(JSON.stringify({ type: 'about:blank', title, status, ...(detail ? { detail } : {}), ...(instance ? { instance } : {}) }));
}

const sameKey = (given: string, key: string) => {
  const [a, b] = [Buffer.from(given), Buffer.from(key)];
  return a.length === b.length && timingSafeEqual(a, b);
};

/** A positive integer as written (`010` is 10), or undefined. */
function positive(values: readonly string[], fallback: number): number | undefined {
  if (values.length === 0) return fallback;
  if (values.length > 1 || !/^\d+$/.test(values[0]!)) return undefined;
  const n = Number(values[0]);
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

async function answer(options: Parameters<typeof servePg>[0], request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const listing = options.listings.find((l) => l.path === url.pathname);
  if (!listing || request.method !== 'GET') return problem(response, listing ? 405 : 404, listing ? 'Method Not Allowed' : 'Not Found');
  const key = request.headers[listing.keyHeader.toLowerCase()];
  if (typeof key !== 'string' || !sameKey(key, options.key))
    return problem(response, 401, 'Unauthorized', `a valid ${listing.keyHeader} is required`);
  const page = positive(url.searchParams.getAll('page'), 1);
  const size = positive(url.searchParams.getAll('pageSize'), listing.defaultSize);
  if (page === undefined || size === undefined || size > listing.maxSize)
    return problem(response, 400, 'Bad Request', `page must be an integer from 1, pageSize from 1 to ${listing.maxSize}`);
  const terms = url.searchParams.getAll('search');
  if (terms.length > 1) return problem(response, 400, 'Bad Request', 'search may be given once');
  const term = terms[0] ?? '';
  const send = (records: readonly unknown[], total: number) => {
    response.writeHead(200, { 'content-type': 'application/json', 'x-total-count': String(total) });
    response.end(JSON.stringify(records));
  };
  // PostgreSQL's text cannot hold NUL: no record contains it. A term longer than any value cannot match either.
  if (term.includes('\u0000') || (options.longestValue !== undefined && term.length > options.longestValue)) return send([], 0);
  const { where, params } = whereOf(listing, term, options.variant);
  const client = await options.pool.connect();
  try {
    await client.query(`SET statement_timeout = 10000`);
    if (options.variant === 'hang' && hangs(term)) await client.query('SELECT pg_sleep(30)');
    const offset = (BigInt(page) - 1n) * BigInt(size);
    const rows = await client.query(
      `SELECT doc FROM ${listing.table} ${where} ORDER BY created_at DESC, id ASC LIMIT ${size} OFFSET ${offset}`,
      params,
    );
    const counted = options.variant === 'count-ignores-search' ? { where: '', params: [] } : { where, params };
    const count = await client.query(`SELECT count(*)::int AS n FROM ${listing.table} ${counted.where}`, counted.params);
    const records = rows.rows.map(({ doc }: { doc: Record<string, unknown> }) =>
      options.variant === 'null-optional' ? Object.fromEntries(listing.fields.map((f) => [f, doc[f] ?? null])) : doc,
    );
    send(records, count.rows[0].n as number);
  } finally {
    client.release();
  }
}

/** The WHERE of a search for `term` (none for an empty one), with its parameters. */
function whereOf(listing: PgListing, term: string, variant: PgVariant): { where: string; params: unknown[] } {
  if (term === '') return { where: '', params: [] };
  const escaped = variant === 'unescaped-like' ? term : term.replace(/[\\%_]/g, (c) => `\\${c}`);
  const pattern = `%${escaped}%`;
  if (variant === 'row-text') return { where: `WHERE ${listing.table}::text ILIKE $1`, params: [pattern] };
  const fields = [
    ...listing.strings.map((f) => `doc->>'${f}' ILIKE $1 ESCAPE '\\'`),
    ...listing.stringArrays.map(
      (f) => `EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(doc->'${f}', '[]')) e WHERE e ILIKE $1 ESCAPE '\\')`,
    ),
  ];
  return { where: `WHERE ${fields.join(' OR ')}`, params: [pattern] };
}
