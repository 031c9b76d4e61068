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
  // Every link is this query with another page: set once (each name's first pair takes the value, in
  // place; a missing name is appended), serialized once around the page's value.
  query.set(names.page, '');
  query.set(names.pageSize, String(pageSize));
  const pairs = [...query];
  const at = pairs.findIndex(([name]) => name === names.page);
  const before = new URLSearchParams(pairs.slice(0, at + 1)).toString();
  const after = new URLSearchParams(pairs.slice(at + 1)).toString();
  const link = (target: number, rel: string) => `<${base}${before}${target}${after ? `&${after}` : ''}>; rel="${rel}"`;
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  const header = links.join(', ');
  return header.length > MAX_LINK_BYTES ? undefined : header;
}
