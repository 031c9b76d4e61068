import type { Finding, ScenarioCheck } from '../check.ts';
import { identities, pageQuery, recordsOf } from '../check.ts';

/**
 * Pages are disjoint and contiguous: pages 1-3 of size 2 are the page of size 6, and page k of size n
 * is records (k-1)n .. kn-1 of the whole listing.
 */
export const paginationConsistency: ScenarioCheck = {
  name: 'pagination_consistency',
  kind: 'scenario',
  description: 'pages are disjoint and contiguous: pages of 2 make the page of 6; page k of size n is records (k-1)n..kn-1',
  async run(context) {
    const findings: Finding[] = [];
    const small = await Promise.all([1, 2, 3].map((page) => context.send(pageQuery(context, page, 2))));
    const six = await context.send(pageQuery(context, 1, 6));
    const pages = small.map(recordsOf);
    const whole = recordsOf(six);
    if (whole && pages.every(Boolean)) {
      const joined = identities(pages.flatMap((p) => p!));
      const expected = identities(whole);
      if (joined.join() !== expected.join()) {
        findings.push({
          severity: 'error',
          message: 'pages 1-3 of size 2 differ from page 1 of size 6',
          expected: expected.join(', '),
          actual: joined.join(', '),
          exchange: small.find((e, i) => identities(pages[i]!).join() !== expected.slice(i * 2, i * 2 + 2).join()) ?? six,
        });
      }
    }

    const listing = await context.listing();
    if (listing.problem) {
      findings.push({ severity: 'error', message: `the listing cannot be read page by page: ${listing.problem}`, expected: 'disjoint pages', actual: listing.problem });
    }
    const all = identities(listing.records);
    for (const [page, size] of [[2, 3], [3, 5], [2, 7]] as const) {
      const start = (page - 1) * size;
      if (start >= all.length) continue;
      const exchange = await context.send(pageQuery(context, page, size));
      const records = recordsOf(exchange);
      if (!records) continue;
      const expected = all.slice(start, start + size);
      const actual = identities(records);
      if (actual.join() !== expected.join()) {
        findings.push({
          severity: 'error',
          message: `page ${page} of size ${size} is not records ${start}..${start + size - 1} of the listing`,
          expected: expected.join(', '),
          actual: actual.join(', '),
          exchange,
        });
      }
    }
    return findings;
  },
};
