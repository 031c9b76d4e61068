import { withListing, type ScenarioCheck } from '../model/check.ts';
import type { Finding } from '../types.ts';
import { listingTotal, sizeExchanges } from '../model/listing.ts';
import type { OperationContext } from '../model/context.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
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

/**
 * The counts of records for which `rel` (next or last) of page 2 of `size` would be `url`: last page L holds the
 * last record, next is page 3 when there are more than two pages, none otherwise; undefined when `url` names no such
 * page at all (another size, a page that is no number), which no count explains.
 *
 * @example
 * countLinked(context, 'last', new URL('/alert?page=4&pageSize=3', base), 3); // { low: 10, high: 12 }
 */
function countLinked(
  context: OperationContext,
  rel: string,
  url: URL | undefined,
  size: number,
): { low: number; high: number } | undefined {
  const { page, pageSize } = context.parameters;
  if (rel === 'next' && url === undefined) return { low: 0, high: 2 * size };
  if (url?.searchParams.get(pageSize.name) !== String(size)) return undefined;
  const at = url.searchParams.get(page.name) ?? '';
  if (!/^[1-9]\d*$/.test(at)) return undefined;
  const linked = Number(at);
  if (rel === 'next') return linked === 3 ? { low: 2 * size + 1, high: Number.POSITIVE_INFINITY } : undefined;
  return linked === 1 ? { low: 0, high: size } : { low: (linked - 1) * size + 1, high: linked * size };
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
      const finding: Finding = {
        severity: 'warning',
        message: `Link rel="${rel}" is wrong for page 2 of size ${size}`,
        expected: page === undefined ? 'no such link' : `page=${page}, pageSize=${size}`,
        actual: url ? url.href : '(missing)',
        exchange,
        // next and last rest on the listing's size too: the pages it was read from.
        ...(rel === 'next' || rel === 'last' ? { exchanges: [exchange, ...extent] } : {}),
      };
      // first and prev of page 2 are page 1 whatever the data; next and last tell the listing's count, which a
      // version admissible for page 2's time must give (see countLinked).
      const within = rel === 'next' || rel === 'last' ? countLinked(context, rel, url, size) : undefined;
      if (!within) {
        findings.push({ ...finding, absolute: true });
        continue;
      }
      const verdict = await judgeAnswer(
        context.versions,
        exchange,
        [{ term: '', count: true }],
        (why) => ({ ...finding, message: `${finding.message}: ${why}` }),
        undefined,
        { countWithin: within },
      );
      if (verdict.kind === 'finding') findings.push(verdict.finding);
      else if (verdict.kind === 'unknown') findings.push(verdict.fallback);
    }
    return findings;
  }),
};
