import type { Finding, ScenarioCheck } from '../check.ts';
import { listingTotal, needListing, needRecords, notApplicable, pageQuery, sizeExchanges } from '../check.ts';

/** Parses an RFC 8288 Link header into rel -> URL (relative URLs resolved against `base`). */
export function parseLinks(header: string, base: string): Map<string, URL> | undefined {
  const links = new Map<string, URL>();
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^\s*<([^>]*)>\s*((?:;\s*[^;]+)*)$/.exec(part);
    if (!match) return undefined;
    const rel = /;\s*rel="?([^";]+)"?/.exec(match[2] ?? '')?.[1];
    if (!rel) return undefined;
    try {
      for (const name of rel.split(/\s+/)) links.set(name, new URL(match[1]!, base));
    } catch {
      return undefined;
    }
  }
  return links;
}

/** When sent, Link parses and its first, prev, next and last agree with the page math (assumed: warnings). */
export const linkHeader: ScenarioCheck = {
  name: 'link_header',
  kind: 'scenario',
  description: 'Link, when present, parses and its first/prev/next/last agree with the page math (assumed)',
  evidence: 'a listing with at least 1 record, and a 200 page 2 of size 3',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 1);
    if (missing) return missing;
    const size = 3;
    const exchange = await context.send(pageQuery(context, 2, size));
    const unusable = needRecords([exchange], 'page 2 of size 3');
    if (unusable) return unusable;
    const header = exchange.response?.headers.link;
    if (header === undefined) return notApplicable('the target sends no Link header (an optional header)');
    const links = parseLinks(header, exchange.request.url);
    if (!links)
      return [{ severity: 'warning', message: 'Link does not parse as RFC 8288', expected: '<url>; rel="..."', actual: header, exchange }];
    const findings: Finding[] = [];
    const total = listingTotal(listing);
    const last = Math.max(1, Math.ceil((total ?? listing.records.length) / size));
    // What next and last are judged by: the pages the listing's size was read from (or all those read).
    const extent = total !== undefined ? sizeExchanges(listing) : listing.pageExchanges;
    const expected: Record<string, number | undefined> = {
      first: 1,
      prev: 1,
      next: 2 < last ? 3 : undefined,
      ...(total !== undefined ? { last } : {}),
    };
    for (const [rel, page] of Object.entries(expected)) {
      const url = links.get(rel);
      const actual = url?.searchParams.get(context.parameters.page.name);
      const actualSize = url?.searchParams.get(context.parameters.pageSize.name);
      if (page === undefined ? url === undefined : actual === String(page) && actualSize === String(size)) continue;
      findings.push({
        severity: 'warning',
        message: `Link rel="${rel}" is wrong for page 2 of size ${size}`,
        expected: page === undefined ? 'no such link' : `page=${page}, pageSize=${size}`,
        actual: url ? url.href : '(missing)',
        exchange,
        exchanges: rel === 'next' || rel === 'last' ? [exchange, ...extent] : [exchange],
      });
    }
    return findings;
  },
};
