/** Where a page starts and ends in a listing of `total` records, and how many pages there are. */
export interface PageWindow {
  readonly start: number;
  readonly end: number;
  /** Number of the last page; 1 for an empty listing, so `first` and `last` always exist. */
  readonly last: number;
}

/** The window of 1-based `page` of size `pageSize`; a page past the end is empty. */
export function pageWindow(total: number, page: number, pageSize: number): PageWindow {
  const start = Math.min(total, (page - 1) * pageSize);
  return { start, end: Math.min(total, start + pageSize), last: Math.max(1, Math.ceil(total / pageSize)) };
}

/**
 * An RFC 8288 Link header with absolute `first`, `prev`, `next` and `last` URLs. Absolute, because a
 * browser app on another origin would resolve a relative link against its own origin. Other query
 * parameters (search...) are kept as the client sent them.
 */
export function linkHeader(
  requestUrl: string,
  names: { readonly page: string; readonly pageSize: string },
  { page, pageSize, last }: { page: number; pageSize: number; last: number },
): string {
  const link = (target: number, rel: string) => {
    const url = new URL(requestUrl);
    url.searchParams.set(names.page, String(target));
    url.searchParams.set(names.pageSize, String(pageSize));
    return `<${url.href}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}
