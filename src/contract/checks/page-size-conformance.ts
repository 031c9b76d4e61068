import {
  answered,
  describeAnswers,
  needListing,
  noEvidence,
  pageQuery,
  recordsOf,
  unusable,
  type Finding,
  type ScenarioCheck,
} from '../check.ts';
import type { Exchange } from '../types.ts';

/** A page holds pageSize records, or all the rest on the last page. */
export const pageSizeConformance: ScenarioCheck = {
  name: 'page_size_conformance',
  kind: 'scenario',
  description: 'pageSize=n gives n records (fewer only on the last page)',
  evidence: 'the listing with at least 2 records, and 200 arrays for the sizes tried',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 2);
    if (missing) return missing;
    const known = listing.records.length;
    const max = Number(context.parameters.pageSize.schema.maximum ?? 100);
    const findings: Finding[] = [];
    const unseen: Exchange[] = [];
    const sizes = [...new Set([1, 2, 7, max])];
    for (const size of sizes) {
      const exchange = await context.send(pageQuery(context, 1, size));
      const records = recordsOf(exchange);
      if (!records) {
        if (answered(exchange)) findings.push(unusable(exchange, 'error', `pageSize=${size}`));
        else unseen.push(exchange);
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
    if (unseen.length === sizes.length) return noEvidence(`no page size got an answer to judge: ${describeAnswers(unseen)}`);
    return findings;
  },
};
