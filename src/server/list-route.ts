import { createHash } from 'node:crypto';
import type { Handler } from 'hono';
import { LISTING_PARAMETERS, listingParameters } from '../spec/listing-parameters.ts';
import type { Operation } from '../spec/operations.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import { linkHeader } from './paginate.ts';
import { createQueryParser } from './parse-query.ts';
import { parsePrefer } from './prefer.ts';
import { PROBLEMS, problem } from './problem.ts';
import type { RecordStore } from './record-store.ts';

/** A listing answer, kept to serve the same request again without recomputing it. */
interface Answer {
  readonly body: string;
  readonly total: number;
  readonly link: string;
  readonly etag: string;
}

const CACHED_ANSWERS = 512;

/**
 * The handler of one listing operation: validates the query against the spec, filters by the search
 * term, and answers one page with `X-Total-Count`, `Link` and an `ETag` (a matching If-None-Match gets
 * 304). Data is immutable until the store is replaced, so answers are cached by URL and store version.
 * Auth runs before it.
 */
export function listRoute(
  operation: Operation,
  store: () => RecordStore,
  version: () => number,
  validator: SchemaValidator,
): Handler {
  listingParameters(operation);
  const parse = createQueryParser(operation.queryParameters, validator);
  const answers = new Map<string, Answer>();

  return (c) => {
    const url = new URL(c.req.url);
    // Prefer: example=empty shows a UI's empty state without touching the data (RFC 7240; Prism's name).
    const empty = parsePrefer(c.req.header('prefer')).get('example') === 'empty';
    const key = `${version()}|${empty ? 'empty|' : ''}${url.href}`;
    let answer = answers.get(key);
    if (!answer) {
      const query = parse(url.searchParams);
      if (!query.ok) {
        const detail = query.errors.map((e) => `${e.name} ${e.detail}`).join('; ');
        return problem(c, PROBLEMS.invalidQuery, detail, { errors: query.errors });
      }
      const page = query.values[LISTING_PARAMETERS.page] as number;
      const pageSize = query.values[LISTING_PARAMETERS.pageSize] as number;
      const term = (query.values[LISTING_PARAMETERS.search] as string | undefined) ?? '';
      const start = Math.min(Number.MAX_SAFE_INTEGER, (page - 1) * pageSize);
      const result = empty ? { total: 0, records: [] } : store().page(term, start, start + pageSize);
      if ('warming' in result) {
        const done = Math.floor(result.warming * 100);
        return problem(c, PROBLEMS.unavailable, `The search index is still being built (${done}% done); retry shortly.`, {
          headers: { 'Retry-After': '2' },
        });
      }
      const body = JSON.stringify(result.records);
      const last = Math.max(1, Math.ceil(result.total / pageSize));
      answer = {
        body,
        total: result.total,
        link: linkHeader(url.href, LISTING_PARAMETERS, { page, pageSize, last }),
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      };
      answers.set(key, answer);
      if (answers.size > CACHED_ANSWERS) answers.delete(answers.keys().next().value!);
    }
    const headers: Record<string, string> = {
      'X-Total-Count': String(answer.total),
      Link: answer.link,
      ETag: answer.etag,
    };
    if (empty) c.header('Preference-Applied', 'example=empty', { append: true });
    const match = c.req.header('if-none-match');
    if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag || tag.trim() === '*')) {
      return c.body(null, 304, headers);
    }
    return c.body(answer.body, 200, { ...headers, 'Content-Type': 'application/json' });
  };
}
