import * as crypto from 'node:crypto';
import type { Handler } from 'hono';
import { takeCorsHeaders } from '../http/browser-cors.ts';
import './response-cache.ts';
import { LISTING_PARAMETERS, listingParameters } from '../spec/listing-parameters.ts';
import type { Operation } from '../spec/operations.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import { AnswerCache, type Answer } from './answer-cache.ts';
import type { HideKeys } from '../http/hide-keys.ts';
import { linkHeader } from './paginate.ts';
import { createQueryParser } from '../http/parse-query.ts';
import { preferencesOf } from '../http/prefer.ts';
import { requestHeader } from '../http/request-header.ts';
import type { ParameterError } from '../http/problem.ts';
import { operationProblem, problem } from '../http/problem.ts';
import type { RecordStore } from '../store/record-store.ts';
import { MOMENT_HEADER } from './live-moment.ts';

/** The answer to a listing request, or why there is none. */
export type Outcome = { answer: Answer } | { invalid: ParameterError[] } | { warming: number };

/**
 * Answers listing requests by URL: the listing's logic, behind its Hono route (see listRoute). `moment`: live
 * data's instant (ms) the request was taken at.
 */
export type Answerer = (url: URL, empty: boolean, moment?: number) => Outcome;

/**
 * Creates the answerer of one listing operation: validates the query against the spec, filters by the
 * search term, and makes one page with its `X-Total-Count`, `Link` and `ETag`. Data is immutable until
 * the store is replaced (live data: until its next change), so answers are cached by URL and the data's
 * identity (live data: and its count of changes).
 */
export function listingAnswerer(
  operation: Operation,
  store: () => RecordStore,
  /** The data's identity (see DatasetStore): part of every cache key and ETag. */
  identity: () => string,
  validator: SchemaValidator,
  answers: AnswerCache,
  /** The app's key redaction: a Link that would carry a key (`?search=<key>`) is left out. */
  hide: HideKeys = (text) => text,
): Answerer {
  listingParameters(operation);
  const parse = createQueryParser(operation.queryParameters, validator);
  const kept = operation.queryParameters.map((p) => p.name);
  return (url, empty, moment) => {
    // Live data: its count of changes by the moment names what is served then, in every key and ETag.
    const events = moment === undefined ? undefined : store().events?.(moment);
    const data = events === undefined ? identity() : `${identity()}@${events}`;
    const key = AnswerCache.key(data, url.href, empty);
    const cached = answers.get(key);
    if (cached) return { answer: cached };
    const query = parse(url.searchParams);
    if (!query.ok) return { invalid: query.errors };
    const page = query.values[LISTING_PARAMETERS.page] as number;
    const pageSize = query.values[LISTING_PARAMETERS.pageSize] as number;
    const term = (query.values[LISTING_PARAMETERS.search] as string | undefined) ?? '';
    const start = Math.min(Number.MAX_SAFE_INTEGER, (page - 1) * pageSize);
    const result = empty ? { total: 0, records: [] } : store().page(term, start, start + pageSize, moment);
    if ('warming' in result) return result;
    const body = ('json' in result && result.json) || JSON.stringify(result.records);
    const link = linkHeader(url, LISTING_PARAMETERS, kept, { page, pageSize, last: Math.max(1, Math.ceil(result.total / pageSize)) });
    const answer: Answer = {
      body,
      total: result.total,
      link: link !== undefined && hide(link) === link ? link : undefined,
      // The page is a function of the data's identity and the normalised query, so those identify it:
      // hashing them is much cheaper than hashing the body.
      etag: `"${sha1(`${data}|${empty}|${term}|${page}|${pageSize}`)}"`,
    };
    answers.offer(key, answer);
    return { answer };
  };
}

/**
 * SHA-1 of a text, base64url: one call where the runtime has `crypto.hash` (Node 21.7 and later), a
 * quarter of a Hash object's cost; a Hash object elsewhere. (A namespace import: a named one of a
 * function a runtime lacks would fail to load.)
 */
const sha1: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha1', text, 'base64url')
    : (text) => crypto.createHash('sha1').update(text).digest('base64url');

/**
 * The Hono handler of one listing: the answerer's answer, a 400 problem for an invalid query, 503
 * while the search index is built, 304 for a matching If-None-Match. Auth runs before it.
 */
export function listRoute(answerer: Answerer, operation: Operation): Handler {
  const [invalid, unavailable] = [operationProblem(operation, 400), operationProblem(operation, 503)];
  // The pagination headers as the spec names them (lower case, as a Fetch Headers object sends them).
  const { count: countName, links: linksName } = operation.paging;
  return (c) => {
    // Prefer: example=empty shows a UI's empty state without touching the data (RFC 7240; Prism's name).
    const empty = preferencesOf(c).get('example') === 'empty';
    const moment = c.get('moment');
    const outcome = answerer(c.get('requestUrl') ?? new URL(c.req.url), empty, moment);
    if ('invalid' in outcome) {
      const detail = outcome.invalid.map((e) => `${e.name} ${e.detail}`).join('; ');
      return problem(c, invalid, detail, { errors: outcome.invalid });
    }
    if ('warming' in outcome) {
      const done = Math.floor(outcome.warming * 100);
      return problem(c, unavailable, `The search index is still being built (${done}% done); retry shortly.`, {
        headers: { 'Retry-After': '2' },
      });
    }
    const { answer } = outcome;
    // Nothing preferred (example, delay, code), forced or simulated reached this answer: the listener
    // may replay it. It depends only on what the response cache keys on (Host, URL, key, Prefer, If-None-Match).
    const cacheable = preferencesOf(c).size === 0;
    // Lower case and in order, as a Fetch Headers object would send them.
    const headers: Record<string, string> = {
      etag: answer.etag,
      ...(answer.link && linksName ? { [linksName]: answer.link } : {}),
      ...(countName ? { [countName]: String(answer.total) } : {}),
      ...(moment === undefined ? {} : { [MOMENT_HEADER]: new Date(moment).toISOString() }),
    };
    const match = requestHeader(c, 'if-none-match');
    const notModified = match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag || tag.trim() === '*');
    if (cacheable) {
      c.set('cacheable', { body: notModified ? '' : answer.body });
      // Nothing was preferred, so no middleware prepared a header with c.header() (only preferences
      // do), which c.body() would have merged: the response is made with its headers as a plain object,
      // CORS's taken from browserCors. On Node no Fetch Headers object is then made for it (a tenth of
      // a fresh request's time).
      const cors = takeCorsHeaders(c);
      return notModified
        ? new Response(null, { status: 304, headers: { ...cors, ...headers } })
        : new Response(answer.body, { status: 200, headers: { ...cors, 'content-type': 'application/json', ...headers } });
    }
    if (empty) c.header('Preference-Applied', 'example=empty', { append: true });
    if (notModified) return c.body(null, 304, headers);
    return c.body(answer.body, 200, { ...headers, 'content-type': 'application/json' });
  };
}
