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
  const url = new URL(requestUrl);
  const base = `${url.origin}${url.pathname}?`;
  const link = (target: number, rel: string) => {
    const params = new URLSearchParams(url.search);
    params.set(names.page, String(target));
    params.set(names.pageSize, String(pageSize));
    return `<${base}${params}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}
