/** Longest Link header sent: past it (a search term of kilobytes) the optional header is left out. */
export const MAX_LINK_BYTES = 2_048;

/**
 * An RFC 8288 Link header with absolute `first`, `prev`, `next` and `last` URLs. Absolute, because a
 * browser app on another origin would resolve a relative link against its own origin. Of the request's
 * query only the operation's own parameters (`kept`, from the spec) are carried over: an unknown
 * parameter is never echoed into a header. Undefined when the header would pass MAX_LINK_BYTES.
 */
export function linkHeader(
  url: URL,
  names: { readonly page: string; readonly pageSize: string },
  kept: readonly string[],
  { page, pageSize, last }: { page: number; pageSize: number; last: number },
): string | undefined {
  const base = `${url.origin}${url.pathname}?`;
  const query = new URLSearchParams([...url.searchParams].filter(([name]) => kept.includes(name)));
  const link = (target: number, rel: string) => {
    const params = new URLSearchParams(query);
    params.set(names.page, String(target));
    params.set(names.pageSize, String(pageSize));
    return `<${base}${params}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  const header = links.join(', ');
  return header.length > MAX_LINK_BYTES ? undefined : header;
}
