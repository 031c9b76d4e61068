// The listing's queries as the spec spells them: its largest page size, its first page, a page's query.
import { listingParameters, type ListingParameters } from '../../spec/listing-parameters.ts';
import type { Operation } from '../../spec/operations.ts';
import type { SendOptions } from '../client/http-client.ts';
import type { OperationContext } from './context.ts';
import type { Exchange } from '../types.ts';
import { countSent } from '../versions/listing-versions.ts';
import type { Claim } from '../versions/rule.ts';

/** The largest page size the spec allows (its default when it states no maximum): what listings are read at. */
export const largestPageSize = ({ pageSize }: ListingParameters): number =>
  typeof pageSize.schema.maximum === 'number' ? pageSize.schema.maximum : Number(pageSize.schema.default);

/** The first page number the spec allows (1 when it states no minimum). */
export const firstPage = ({ page }: ListingParameters): number => (typeof page.schema.minimum === 'number' ? page.schema.minimum : 1);

/** The page size the spec gives a request without one (its largest when it states no default). */
export const defaultPageSize = (parameters: ListingParameters): number =>
  typeof parameters.pageSize.schema.default === 'number' ? parameters.pageSize.schema.default : largestPageSize(parameters);

/**
 * What an answer's count header says (the header the spec marks `x-pagination: total-count`), when the spec has
 * one and the answer sends it.
 *
 * @example
 * const total = countHeader(context, exchange); // '312', or undefined
 */
export const countHeader = (context: Pick<OperationContext, 'operation'>, exchange: Exchange): string | undefined => {
  const name = context.operation.paging.count;
  return name === undefined ? undefined : exchange.response?.headers[name];
};

/**
 * The count an answer sent in the spec's count header, when it sent a whole number there.
 *
 * @example
 * countOf(context, exchange); // 312, or undefined
 */
export const countOf = (context: Pick<OperationContext, 'operation'>, exchange: Exchange): number | undefined =>
  countSent(context.operation.paging.count, exchange);

/** What an answer's Link header says (the header the spec marks `x-pagination: links`), when the spec has one and it is sent. */
export const linksHeader = (context: Pick<OperationContext, 'operation'>, exchange: Exchange): string | undefined => {
  const name = context.operation.paging.links;
  return name === undefined ? undefined : exchange.response?.headers[name];
};

/** How a listing's pages are sent: before queued requests, since most checks wait on the listing. */
export const LISTING_READ: SendOptions = { priority: 1 };

/** The query for page `page` of size `size`, with the spec's parameter names. */
export function pageQuery(
  context: Pick<OperationContext, 'parameters'>,
  page: number,
  size: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ...extra, [context.parameters.page.name]: String(page), [context.parameters.pageSize.name]: String(size) };
}

/**
 * What a listing query claims over a version of the listing: the page it asks for of the records its search term
 * finds, the spec's defaults standing for what it leaves out.
 *
 * @example
 * queryClaim(parameters, { page: '2', pageSize: '10' }); // { term: '', page: { offset: 10, size: 10 } }
 */
export function queryClaim(parameters: ListingParameters, query: Readonly<Record<string, string>>): Claim {
  const first = firstPage(parameters);
  const size = Number(query[parameters.pageSize.name] ?? defaultPageSize(parameters));
  const page = Number(query[parameters.page.name] ?? parameters.page.schema.default ?? first);
  return { term: query[parameters.search.name] ?? '', page: { offset: (page - first) * size, size } };
}

/**
 * The query the request of `exchange` sent, a parameter given twice by its last value.
 * @example
 * sentQuery(exchange); // { page: '2', pageSize: '10' }
 */
export const sentQuery = (exchange: Exchange): Record<string, string> => Object.fromEntries(new URL(exchange.request.url).searchParams);

/** What the request of `exchange` claimed, read from the query it sent (see queryClaim). */
export const sentClaim = (parameters: ListingParameters, exchange: Exchange): Claim => queryClaim(parameters, sentQuery(exchange));

/** Records skipped before a page at which a database's OFFSET starts to cost: a page "far in". */
const FAR_IN = 1_000;

/**
 * The kind of a listing request, whose latency the client's limit learns apart: a search, a page far in (a
 * database's OFFSET skips rows one by one) or a plain page; a path off the interface (a variant the checks try)
 * is of the kind `other paths`.
 *
 * @example
 * const kindOf = requestKind(operations);
 * kindOf('/alert', { search: 'PH28' }); // '/alert search'
 */
export function requestKind(operations: readonly Operation[]): (path: string, query: Readonly<Record<string, string>>) => string {
  const listings = new Map(operations.map((op) => [op.path, listingParameters(op)]));
  return (path, query) => {
    const parameters = listings.get(path);
    if (!parameters) return 'other paths';
    if (query[parameters.search.name]) return `${path} search`;
    return queryClaim(parameters, query).page!.offset >= FAR_IN ? `${path} page far in` : `${path} page`;
  };
}
