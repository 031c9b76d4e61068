import type { Finding, ScenarioCheck } from '../check.ts';
import { pageQuery, recordsOf, unusable } from '../check.ts';

/** A page holds pageSize records, or all the rest on the last page. */
export const pageSizeConformance: ScenarioCheck = {
  name: 'page_size_conformance',
  kind: 'scenario',
  description: 'pageSize=n gives n records (fewer only on the last page)',
  async run(context) {
    const listing = await context.listing();
    const known = listing.records.length;
    const max = Number(context.parameters.pageSize.schema.maximum ?? 100);
    const findings: Finding[] = [];
    for (const size of [...new Set([1, 2, 7, max])]) {
      const exchange = await context.send(pageQuery(context, 1, size));
      const records = recordsOf(exchange);
      if (!records) {
        if (exchange.response && exchange.response.status < 500) findings.push(unusable(exchange, 'error', `pageSize=${size}`));
        continue;
      }
      // Without the whole listing, only "at most n" (and "n" when we saw more than n) can be asserted.
      const expected = listing.complete ? Math.min(size, known) : size <= known ? size : undefined;
      const wrong = expected === undefined ? records.length > size : records.length !== expected;
      if (wrong) {
        findings.push({
          severity: 'error',
          message: `pageSize=${size} gave ${records.length} records`,
          expected: expected === undefined ? `at most ${size}` : `${expected} records`,
          actual: `${records.length} records`,
          exchange,
        });
      }
    }
    return findings;
  },
};
