// The listing's queries as the spec spells them: its largest page size, its first page, a page's query.
import type { ListingParameters } from '../../spec/listing-parameters.ts';
import type { SendOptions } from '../client/http-client.ts';
import type { OperationContext } from './context.ts';

/** The largest page size the spec allows (its default when it states no maximum): what listings are read at. */
export const largestPageSize = ({ pageSize }: ListingParameters): number =>
  typeof pageSize.schema.maximum === 'number' ? pageSize.schema.maximum : Number(pageSize.schema.default);

/** The first page number the spec allows (1 when it states no minimum). */
export const firstPage = ({ page }: ListingParameters): number => (typeof page.schema.minimum === 'number' ? page.schema.minimum : 1);

/** How a listing's pages are sent: before queued requests, since most checks wait on the listing. */
export const LISTING_READ: SendOptions = { priority: 1 };

/** The query for page `page` of size `size`, with the spec's parameter names. */
export function pageQuery(
  context: OperationContext,
  page: number,
  size: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ...extra, [context.parameters.page.name]: String(page), [context.parameters.pageSize.name]: String(size) };
}
