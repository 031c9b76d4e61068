/**
 * The request's URL, or undefined when it does not parse: @hono/node-server lets a Host such as
 * `999.0.0.1` or `a.1` through, and `new URL()` of it throws later.
 */
export function parsedUrl(url: string): URL | undefined {
  // Parsed once: a URL that does not parse is rare (a refused request), so the throw costs little.
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * The request's path and query, cut from the raw URL text without parsing it, so it works whatever
 * the Host (for `instance` and log lines even of a request refused for its Host).
 */
export function pathAndQuery(url: string): string {
  const afterScheme = url.indexOf('//');
  const slash = url.indexOf('/', afterScheme < 0 ? 0 : afterScheme + 2);
  return slash < 0 ? '/' : url.slice(slash);
}
