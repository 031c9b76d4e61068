// Which requests read the listing's head: their answers are sightings of a version of the listing.
import type { ListingParameters } from '../../spec/listing-parameters.ts';
import type { SendOptions } from '../client/http-client.ts';
import { firstPage, largestPageSize } from './listing-query.ts';

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
