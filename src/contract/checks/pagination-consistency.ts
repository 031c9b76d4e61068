import { describeAnswers, needRecords, unanswered } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { needListing, listingTotal, pagesHolding, type Listing, type ReadPage } from '../model/listing.ts';
import { countOf, pageQuery, firstPage } from '../model/listing-query.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { OperationContext } from '../model/context.ts';
import { partly } from '../model/skip.ts';
import type { Exchange, Finding } from '../types.ts';
import { comparedByVersions } from '../model/compared-by-versions.ts';
import { AGAIN_TOGETHER, askedTogether } from '../model/asked-together.ts';

/**
 * Pages are disjoint and contiguous: pages 1-3 of size 2 are the page of size 6, page k of size n is
 * records (k-1)n .. kn-1 of the whole listing, and no record is on two pages of it. Past --max-pages, the
 * pages read far in (finding the end, sampled pairs) are judged too: adjacent ones share no record, and every
 * page before the last is full.
 */
export const paginationConsistency: ScenarioCheck = {
  name: 'pagination_consistency',
  kind: 'scenario',
  description: 'pages are disjoint and contiguous: pages of 2 make the page of 6; page k of size n is records (k-1)n..kn-1',
  evidence: 'the listing with at least 1 record, and 200 arrays for the pages compared',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 1);
    if (missing) return missing;
    const findings: Finding[] = listing.repeated ? [repeatedFinding(context, listing)] : await farPages(context, listing);
    const first = firstPage(context.parameters);
    const queries = [...[0, 1, 2].map((k) => pageQuery(context, first + k, 2)), pageQuery(context, first, 6)];
    const small = await Promise.all(queries.slice(0, 3).map((query) => context.send(query)));
    const six = await context.send(queries[3]!);
    const unusable = needRecords([...small, six], 'comparing pages 1-3 of size 2 with page 1 of size 6');
    if (unusable) return unusable;
    const joined = identities(small.flatMap((e) => recordsOf(e)!));
    const expected = identities(recordsOf(six)!);
    if (joined.join() !== expected.join()) {
      findings.push({
        severity: 'error',
        message: 'pages 1-3 of size 2 differ from page 1 of size 6',
        expected: expected.join(', '),
        actual: joined.join(', '),
        exchange: small.find((e, i) => identities(recordsOf(e)!).join() !== expected.slice(i * 2, i * 2 + 2).join()) ?? six,
        exchanges: [...small, six],
        // Each page explained by a version of the listing: pages read from versions apart need not tile.
        ...comparedByVersions(context, [...small, six]),
      });
    }
    const slices = await slicesOfListing(context, listing);
    const second = await withoutPageSize(context, listing);
    return partly([...findings, ...slices.findings, ...second.findings], [...slices.notObserved, ...second.notObserved]);
  },
};

/**
 * Page k of size n is records (k-1)n..kn-1 of the listing, for a few k and n; a slice the listing does not reach,
 * or that got no 200 array, is not observed.
 */
async function slicesOfListing(context: OperationContext, listing: Listing): Promise<{ findings: Finding[]; notObserved: string[] }> {
  const findings: Finding[] = [];
  const all = identities(listing.records);
  const slices = [
    [2, 3],
    [3, 5],
    [2, 7],
  ] as const;
  const tooFar: string[] = [];
  const unseen: { label: string; exchange: Exchange }[] = [];
  for (const [page, size] of slices) {
    const start = (page - 1) * size;
    if (start >= all.length) {
      tooFar.push(`page ${page} of size ${size}`);
      continue;
    }
    const exchange = await context.send(pageQuery(context, page, size));
    const records = recordsOf(exchange);
    if (!records) {
      unseen.push({ label: `page ${page} of size ${size}`, exchange });
      continue;
    }
    const expectedPage = all.slice(start, start + size);
    const actual = identities(records);
    if (actual.join() !== expectedPage.join()) {
      findings.push({
        severity: 'error',
        message: `page ${page} of size ${size} is not records ${start}..${start + size - 1} of the listing`,
        expected: expectedPage.join(', '),
        actual: actual.join(', '),
        exchange,
        // The listing's pages that hold the records expected.
        exchanges: [exchange, ...pagesHolding(listing, start, size)],
        ...comparedByVersions(context, [exchange]),
      });
    }
  }
  const reached =
    tooFar.length === 0
      ? []
      : [`page k of size n as records (k-1)n..kn-1, for ${tooFar.join(', ')}: the listing has ${all.length} records, none that far`];
  return { findings, notObserved: [...reached, ...unanswered('pages of other sizes', slices.length, unseen)] };
}

/**
 * Pages 1 and 2 without pageSize, judged by the stated rules whatever the default size n is (n read as page
 * 1's length): when the listing holds more than page 1, page 2 is not page 1, shares no record with it, and,
 * unless it is the last page, holds n records too. Where the listing or the answers cannot show that (no page 2
 * past page 1, no 200 arrays, an end not found), it is not observed.
 */
async function withoutPageSize(context: OperationContext, listing: Listing): Promise<{ findings: Finding[]; notObserved: string[] }> {
  const total = listingTotal(listing);
  const one = firstPage(context.parameters);
  const queries = [{ [context.parameters.page.name]: String(one) }, { [context.parameters.page.name]: String(one + 1) }];
  const [first, second] = await Promise.all(queries.map((query) => context.send(query)));
  const [a, b] = [recordsOf(first!), recordsOf(second!)];
  const n = a?.length ?? 0;
  const unseen = (why: string) => ({ findings: [], notObserved: [`page 2 without ${context.parameters.pageSize.name}: ${why}`] });
  if (!a || !b) return unseen(describeAnswers([first!, second!].filter((e) => !recordsOf(e))));
  if (total === undefined) return unseen(`the listing's end was not found: ${listing.endProblem ?? listing.problem ?? ''}`);
  if (n === 0) return unseen('page 1 holds no record');
  if (total <= n) return unseen(`the listing has ${total} records, all on page 1`);
  const [ida, idb] = [identities(a), identities(b)];
  const shared = idb.filter((id) => ida.includes(id));
  /** Whether page 2 breaks a stated rule against page 1: empty, sharing a record, or short before the last page. */
  const broken = (p1: readonly string[], p2: readonly string[]) =>
    p2.length === 0 || p2.some((id) => p1.includes(id)) || (total >= 2 * p1.length + 1 && p2.length !== p1.length);
  if (!broken(ida, idb)) return { findings: [], notObserved: [] };
  const message =
    b.length === 0
      ? `page 2 without ${context.parameters.pageSize.name} is empty, though the listing holds ${total} records and page 1 ${n}`
      : shared.length > 0
        ? `pages 1 and 2 without ${context.parameters.pageSize.name} share ${shared.length} of their records${shared.length === n ? ' (page 2 is page 1)' : ''}`
        : `page 2 without ${context.parameters.pageSize.name} holds ${b.length} records, though page 1 holds ${n} and more follow`;
  return {
    findings: [
      {
        severity: 'error',
        message,
        expected: `${Math.min(n, total - n)} records after page 1's, none of them on page 1`,
        actual: `${b.length} records${shared.length > 0 ? `, ${shared.slice(0, 3).join(', ')} on both` : ''}`,
        exchange: second!,
        exchanges: [first!, second!],
        // Both explained by versions of the listing at the size the spec assumes: read from versions apart.
        ...comparedByVersions(context, [first!, second!]),
      },
    ],
    notObserved: [],
  };
}

/**
 * Adjacent pages read beyond the prefix share no record, and each one before the last page is full. Read one after
 * another as the end was looked for, records arriving meanwhile push a page's last records onto the next: a pair
 * that breaks the rule is asked again together (see askedTogether), and stands only when it breaks it each time.
 */
async function farPages(context: OperationContext, listing: Listing): Promise<Finding[]> {
  const end = listing.end;
  if (!end) return [];
  // A page repeating the last one is not among them: records past the end are page_past_end's, not an overlap.
  const pages = end.pages;
  const findings: Finding[] = [];
  for (const [i, page] of pages.entries()) {
    const next = pages[i + 1]?.page === page.page + 1 ? pages[i + 1] : undefined;
    const grewBy = (a: Exchange, b: Exchange) => Math.max(0, (countOf(context, b) ?? 0) - (countOf(context, a) ?? 0));
    const found = farPair(
      listing.size,
      page,
      next && afterSeam(page, next, grewBy(page.exchange, next.exchange)),
      page.page < end.last.page,
    );
    if (found.length === 0) continue;
    const queries = [page.page, page.page + 1].map((p) => pageQuery(context, p, listing.size));
    const again = await askedTogether(context, queries, ([a, b]) => {
      const [ra, rb] = [recordsOf(a!), recordsOf(b!)];
      if (ra === undefined || rb === undefined) return false;
      const [pa, pb] = [
        { ...page, records: ra },
        { page: page.page + 1, records: rb, exchange: b! },
      ];
      return farPair(listing.size, pa, afterSeam(pa, pb, grewBy(a!, b!)), rb.length > 0).length === 0;
    });
    if (!again.agreed)
      findings.push(
        ...found.map((f) => ({
          ...f,
          message: f.message + AGAIN_TOGETHER,
          exchanges: [...(f.exchanges ?? [f.exchange!]), ...again.answers],
        })),
      );
  }
  return findings;
}

/**
 * `next` without the records at its head that repeat the end of `page` in order, up to `grew` of them: records that
 * arrived between the two answers (their counts that far apart) pushed them on from `page`.
 */
function afterSeam(page: ReadPage, next: ReadPage, grew: number): ReadPage {
  const [a, b] = [identities(page.records), identities(next.records)];
  let k = Math.min(grew, a.length, b.length);
  while (k > 0 && b.slice(0, k).join() !== a.slice(-k).join()) k -= 1;
  return k === 0 ? next : { ...next, records: next.records.slice(k) };
}

/** What breaks the rule in a page read far in and the page after it (when read): short before the last, records shared. */
function farPair(size: number, page: ReadPage, next: ReadPage | undefined, beforeLast: boolean): Finding[] {
  const findings: Finding[] = [];
  if (beforeLast && page.records.length !== size) {
    findings.push({
      severity: 'error',
      message: `page ${page.page} of size ${size} holds ${page.records.length} records, though later pages have records`,
      expected: `${size} records`,
      actual: `${page.records.length} records`,
      exchange: page.exchange,
    });
  }
  const ids = new Set(identities(page.records));
  const shared = identities(next?.records ?? []).filter((id) => ids.has(id));
  if (next && shared.length > 0) {
    findings.push({
      severity: 'error',
      message: `pages ${page.page} and ${next.page} of size ${size} share ${shared.length} record${shared.length === 1 ? '' : 's'}`,
      expected: 'every record on one page only',
      actual: `${shared.slice(0, 3).join(', ')} on both`,
      exchange: next.exchange,
      exchanges: [page.exchange, next.exchange],
    });
  }
  return findings;
}

/** The listing read in pages repeated a record: the two pages, each judged by the versions (see comparedByVersions). */
function repeatedFinding(context: OperationContext, listing: Listing): Finding {
  return {
    severity: 'error',
    message: `the listing's pages overlap: ${listing.problem ?? ''}`,
    expected: 'every record on one page only',
    actual: `${listing.repeated!.id} again on page ${listing.repeated!.page}`,
    exchanges: listing.pageExchanges.slice(-2),
    // Each page a version admissible for its time gives: pages read from versions apart may repeat a record.
    ...comparedByVersions(context, listing.pageExchanges.slice(-2)),
  };
}
