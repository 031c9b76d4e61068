import { answered, describeAnswers, unanswered, unusable } from '../model/answers.ts';
import { recordsOf } from '../records.ts';
import { listingTotal, pagesHolding, sizeExchanges } from '../model/listing.ts';
import { noEvidence, partly } from '../model/skip.ts';
import { countOf, pageQuery, largestPageSize, firstPage } from '../model/listing-query.ts';
import { withListing, type ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import type { OperationContext } from '../model/context.ts';
import { AGAIN_TOGETHER, askedTogether, endShown, pageHolds } from '../model/asked-together.ts';

/**
 * A page holds pageSize records, or all the rest on the last page. Past --max-pages, the end the kit found
 * at the largest size must be the end at another size too: a last page dropped or padded shows there.
 */
export const pageSizeConformance: ScenarioCheck = {
  name: 'page_size_conformance',
  kind: 'scenario',
  description: 'pageSize=n gives n records (fewer only on the last page)',
  evidence: 'the listing with at least 2 records, and 200 arrays for the sizes tried',
  run: withListing(2, async (context, listing) => {
    const known = listing.records.length;
    const total = listingTotal(listing);
    const max = largestPageSize(context.parameters);
    const findings: Finding[] = [];
    const unseen: { label: string; exchange: Exchange }[] = [];
    const sizes = [...new Set([1, 2, 7, max])];
    for (const size of sizes) {
      const exchange = await context.send(pageQuery(context, firstPage(context.parameters), size));
      const records = recordsOf(exchange);
      if (!records) {
        if (answered(exchange)) findings.push(unusable(exchange, 'error', `pageSize=${size}`));
        else unseen.push({ label: `pageSize=${size}`, exchange });
        continue;
      }
      // Without the whole listing, only "at most n" (and "n" when we saw more than n) can be asserted.
      const expected = total !== undefined ? Math.min(size, total) : size <= known ? size : undefined;
      const wrong = expected === undefined ? records.length > size : records.length !== expected;
      if (wrong) {
        findings.push({
          severity: 'error',
          message: `pageSize=${size} gave ${records.length} records`,
          expected: expected === undefined ? `at most ${size}` : `${expected} records`,
          actual: `${records.length} records`,
          exchange,
          // Expected from the listing's size, or from its first records read; more than asked for, from the page alone.
          exchanges: [
            exchange,
            ...(expected === undefined ? [] : total !== undefined ? sizeExchanges(listing) : pagesHolding(listing, 0, size)),
          ],
        });
      }
    }
    if (unseen.length === sizes.length)
      return noEvidence(`no page size got an answer to judge: ${describeAnswers(unseen.map((u) => u.exchange))}`);
    const end = listing.end ? await endAtAnotherSize(context, listing.end.total, listing.size, sizeExchanges(listing)) : undefined;
    // A size, or a page of the end at another size, without a 200 array was not seen: reported, not passed.
    return partly(
      [...findings, ...(end?.findings ?? [])],
      [...unanswered('page sizes', sizes.length, unseen), ...(end?.notObserved ?? [])],
    );
  }),
};

/**
 * The last page at size 7 holds what the end found at `size` leaves there, and the page after it none; a page
 * without a 200 array is not observed. Asked again together with the last pages at `size` when they do not: an end
 * that moved since it was found (records arrived) is where both sizes end at one moment.
 */
async function endAtAnotherSize(
  context: OperationContext,
  total: number,
  size: number,
  end: readonly Exchange[],
): Promise<{ findings: Finding[]; notObserved: string[] }> {
  const other = size === 7 ? 6 : 7;
  const last = Math.max(1, Math.ceil(total / other));
  /** Whether page `page` of size `per` holds what the count its own answer sent leaves there (false without one). */
  const holdsItsCount = (page: number, per: number, exchange: Exchange) => {
    const counted = countOf(context, exchange);
    return counted !== undefined && recordsOf(exchange)?.length === pageHolds(counted, page, per);
  };
  const findings: Finding[] = [];
  const unseen: { label: string; exchange: Exchange }[] = [];
  const pages = [
    [last, total - (last - 1) * other],
    [last + 1, 0],
  ] as const;
  for (const [page, want] of pages) {
    const exchange = await context.send(pageQuery(context, page, other));
    const records = recordsOf(exchange);
    if (!records) unseen.push({ label: `page ${page}`, exchange });
    if (!records || records.length === want) continue;
    findings.push({
      severity: 'error',
      message: `page ${page} of size ${other} holds ${records.length} records, though read at size ${size} the listing ends after ${total}`,
      expected: `${want} records`,
      actual: `${records.length} records`,
      exchange,
      exchanges: [exchange, ...end],
    });
  }
  const notObserved = unanswered(`pages of size ${other} at the end`, pages.length, unseen);
  if (findings.length === 0) return { findings, notObserved };
  // The end was found earlier, at moments apart: records arriving since move it. Both sizes' last pages, asked
  // together, must end the listing at one place.
  const atEnd = Math.max(1, Math.ceil(total / size));
  const asked = [
    [last, other],
    [last + 1, other],
    [atEnd, size],
    [atEnd + 1, size],
  ] as const;
  const again = await askedTogether(
    context,
    asked.map(([p, per]) => pageQuery(context, p, per)),
    (answers) => {
      // Each page as its own count says, at both sizes: on a server answering one at a time, records arrive between them.
      if (answers.every((answer, i) => holdsItsCount(asked[i]![0], asked[i]![1], answer))) return true;
      const [a, b, endA, endB] = answers.map(recordsOf);
      const now = endShown(atEnd, size, [endA, endB]);
      return now !== undefined && a?.length === pageHolds(now, last, other) && b?.length === pageHolds(now, last + 1, other);
    },
  );
  if (again.agreed) return { findings: [], notObserved };
  return {
    findings: findings.map((f) => ({ ...f, message: f.message + AGAIN_TOGETHER, exchanges: [...f.exchanges!, ...again.answers] })),
    notObserved,
  };
}
