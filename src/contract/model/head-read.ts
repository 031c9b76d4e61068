// Which requests read the listing's head: their answers are sightings of a version of the listing.
import type { ListingParameters } from '../../spec/listing-parameters.ts';
import type { SendOptions } from '../client/http-client.ts';
import { identities, recordsOf } from '../records.ts';
import type { Exchange } from '../types.ts';
import type { OperationContext } from './context.ts';
import { countHeader, firstPage, largestPageSize, pageQuery } from './listing-query.ts';

/**
 * Whether a request reads the head of the listing: no search, the first page (or none given), a page size within
 * the spec's bounds (or none given), on the operation's own path with the run's key and nothing else of its own.
 *
 * @example
 * isHeadRead(parameters, { pageSize: '100' }); // true
 * isHeadRead(parameters, { page: '2' }); // false
 */
export function isHeadRead(
  parameters: ListingParameters,
  query: Readonly<Record<string, string>>,
  options: SendOptions | undefined,
): boolean {
  const { priority: _, ...own } = options ?? {};
  if (Object.values(own).some((v) => v !== undefined)) return false;
  const { page, pageSize } = parameters;
  if (Object.keys(query).some((name) => name !== page.name && name !== pageSize.name)) return false;
  const pageValue = query[page.name];
  if (pageValue !== undefined && pageValue !== String(firstPage(parameters))) return false;
  const size = query[pageSize.name];
  if (size === undefined) return true;
  const min = typeof pageSize.schema.minimum === 'number' ? pageSize.schema.minimum : 1;
  return /^[1-9]\d*$/.test(size) && Number(size) >= min && Number(size) <= largestPageSize(parameters);
}

/**
 * The query that reads the head at its widest: the first page at the largest page size.
 *
 * @example
 * context.send(headQuery(context)); // { page: '1', pageSize: '100' }
 */
export function headQuery(context: Pick<OperationContext, 'parameters'>): Record<string, string> {
  const { parameters } = context;
  return pageQuery(context, firstPage(parameters), largestPageSize(parameters));
}

/**
 * The query that searches for `term` at its widest: the first page of its matches at the largest page size.
 *
 * @example
 * context.send(searchHeadQuery(context, 'ALR-6507')); // { search: 'ALR-6507', page: '1', pageSize: '100' }
 */
export function searchHeadQuery(context: Pick<OperationContext, 'parameters'>, term: string): Record<string, string> {
  const { parameters } = context;
  return pageQuery(context, firstPage(parameters), largestPageSize(parameters), { [parameters.search.name]: term });
}

/**
 * A read of the head as the version it shows (its records in order and its count), to tell two reads the same or
 * apart; undefined when it shows no records.
 *
 * @example
 * headKey(context, a) === headKey(context, b); // the same records, in the same order, with the same count
 */
export function headKey(context: Pick<OperationContext, 'operation'>, exchange: Exchange): string | undefined {
  const records = recordsOf(exchange);
  return records ? `${identities(records).join()}|${countHeader(context, exchange) ?? ''}` : undefined;
}
