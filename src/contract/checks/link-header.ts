import { withListing, type ScenarioCheck } from '../model/check.ts';
import type { Finding } from '../types.ts';
import { recountAgain } from '../moment/at-once.ts';
import { listingTotal, sizeExchanges } from '../model/listing.ts';
import { needRecords } from '../model/answers.ts';
import { notApplicable } from '../model/skip.ts';
import { pageQuery, firstPage, linksHeader } from '../model/listing-query.ts';

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

/** The pages Link's first, prev, next and last name for page 2 of size `size` of `count` records (last when it is known). */
function pagesOf(count: number, size: number, known: boolean): Record<string, number | undefined> {
  const last = Math.max(1, Math.ceil(count / size));
  return { first: 1, prev: 1, next: 2 < last ? 3 : undefined, ...(known ? { last } : {}) };
}

/** When sent, Link parses and its first, prev, next and last agree with the page math (assumed: warnings). */
export const linkHeader: ScenarioCheck = {
  name: 'link_header',
  kind: 'scenario',
  description: 'Link, when present, parses and its first/prev/next/last agree with the page math (assumed)',
  evidence: 'a listing with at least 1 record, and a 200 page 2 of size 3',
  run: withListing(1, async (context, listing) => {
    const size = 3;
    const exchange = await context.send(pageQuery(context, firstPage(context.parameters) + 1, size));
    const unusable = needRecords([exchange], 'page 2 of size 3');
    if (unusable) return unusable;
    const header = linksHeader(context, exchange);
    if (header === undefined) return notApplicable('the target sends no Link header (an optional header)');
    const links = parseLinks(header, exchange.request.url);
    if (!links)
      return [{ severity: 'warning', message: 'Link does not parse as RFC 8288', expected: '<url>; rel="..."', actual: header, exchange }];
    const findings: Finding[] = [];
    const total = listingTotal(listing);
    // What next and last are judged by: the pages the listing's size was read from (or all those read).
    const extent = total !== undefined ? sizeExchanges(listing) : listing.pageExchanges;
    const expected = pagesOf(total ?? listing.records.length, size, total !== undefined);
    const right = (page: number | undefined, url: URL | undefined) =>
      page === undefined
        ? url === undefined
        : url?.searchParams.get(context.parameters.page.name) === String(page) &&
          url.searchParams.get(context.parameters.pageSize.name) === String(size);
    for (const [rel, page] of Object.entries(expected)) {
      const url = links.get(rel);
      if (right(page, url)) continue;
      const counted = rel === 'next' || rel === 'last';
      findings.push({
        severity: 'warning',
        message: `Link rel="${rel}" is wrong for page 2 of size ${size}`,
        expected: page === undefined ? 'no such link' : `page=${page}, pageSize=${size}`,
        actual: url ? url.href : '(missing)',
        exchange,
        exchanges: counted ? [exchange, ...extent] : [exchange],
        // first and prev of page 2 are page 1 whatever the data; next and last rest on the listing's size, read at
        // another moment: page 2 and the listing are read again at once.
        ...(counted ? {} : { absolute: true }),
        ...(counted && listing.complete
          ? {
              recheck: recountAgain(
                context,
                listing,
                [{ query: pageQuery(context, firstPage(context.parameters) + 1, size) }],
                (count, [again]) => {
                  const header = linksHeader(context, again!);
                  const now = header === undefined ? undefined : parseLinks(header, again!.request.url);
                  return now ? !right(pagesOf(count, size, true)[rel], now.get(rel)) : undefined;
                },
              ),
            }
          : {}),
      });
    }
    return findings;
  }),
};
