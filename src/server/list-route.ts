import type { Handler } from 'hono';
import { LISTING_PARAMETERS, listingParameters } from '../spec/listing-parameters.ts';
import type { Operation } from '../spec/operations.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import { linkHeader, pageWindow } from './paginate.ts';
import { createQueryParser } from './parse-query.ts';
import { parsePrefer } from './prefer.ts';
import { PROBLEMS, problem } from './problem.ts';
import type { RecordStore } from './record-store.ts';

/**
 * The handler of one listing operation: validates the query against the spec, filters by the search
 * term, and answers one page with `X-Total-Count` and `Link`. Auth runs before it.
 */
export function listRoute(operation: Operation, store: () => RecordStore, validator: SchemaValidator): Handler {
  listingParameters(operation);
  const parse = createQueryParser(operation.queryParameters, validator);

  return (c) => {
    const url = new URL(c.req.url);
    const query = parse(url.searchParams);
    if (!query.ok) {
      const detail = query.errors.map((e) => `${e.name} ${e.detail}`).join('; ');
      return problem(c, PROBLEMS.invalidQuery, detail, { errors: query.errors });
    }
    const page = query.values[LISTING_PARAMETERS.page] as number;
    const pageSize = query.values[LISTING_PARAMETERS.pageSize] as number;
    // Prefer: example=empty shows a UI's empty state without touching the data (RFC 7240; Prism's name).
    const empty = parsePrefer(c.req.header('prefer')).get('example') === 'empty';
    if (empty) c.header('Preference-Applied', 'example=empty', { append: true });
    const matches = empty ? [] : store().filter((query.values[LISTING_PARAMETERS.search] as string | undefined) ?? '');
    const window = pageWindow(matches.length, page, pageSize);
    c.header('X-Total-Count', String(matches.length));
    c.header('Link', linkHeader(url.href, LISTING_PARAMETERS, { page, pageSize, last: window.last }));
    return c.json(matches.slice(window.start, window.end));
  };
}
