import type { ScenarioCheck } from '../model/check.ts';
import type { Finding } from '../types.ts';
import { listingTotal, needListing, sizeExchanges } from '../model/listing.ts';
import { needRecords } from '../model/answers.ts';
import { notApplicable, partly } from '../model/skip.ts';
import { countHeader, pageQuery, firstPage } from '../model/listing-query.ts';
import { noMatchTerm } from '../material/search-term.ts';
import { comparedByVersions } from '../model/compared-by-versions.ts';

/** When sent, X-Total-Count is an integer equal to the records counted, after search (assumed: warnings). */
export const totalCountHeader: ScenarioCheck = {
  name: 'total_count_header',
  kind: 'scenario',
  description: 'X-Total-Count, when present, equals the records enumerated (or counted to the end found), after search (assumed)',
  evidence: 'a 200 page, the listing read to its end (or its end found) to compare the count',
  async run(context) {
    const listing = await context.listing();
    const exchange = await context.send(pageQuery(context, firstPage(context.parameters), 1));
    const unusable = needRecords([exchange], 'page 1 of size 1');
    if (unusable) return unusable;
    const header = countHeader(context, exchange);
    if (header === undefined) return notApplicable('the target sends no X-Total-Count (an optional header)');
    const findings: Finding[] = [];
    if (!/^\d+$/.test(header)) {
      findings.push({
        severity: 'warning',
        message: 'X-Total-Count is not a non-negative integer',
        expected: 'an integer',
        actual: header,
        exchange,
      });
    } else {
      const missing = needListing(listing, 0, true);
      if (missing) return missing;
      const total = listingTotal(listing)!;
      if (Number(header) !== total) {
        findings.push({
          severity: 'warning',
          message: `X-Total-Count differs from the records ${listing.complete ? 'enumerated' : 'counted to the end the kit found'}`,
          expected: String(total),
          actual: header,
          exchange,
          exchanges: [exchange, ...sizeExchanges(listing)],
          // The count of a version admissible for its time: the listing moved since it was read (arrivals, replicas apart).
          ...comparedByVersions(context, [exchange], { claimOf: (sent) => ({ term: sent.term, count: true }) }),
        });
      }
    }
    const none = await context.send({ [context.parameters.search.name]: noMatchTerm(context.seed) });
    const noneHeader = countHeader(context, none);
    // The count after a search is seen only on a 200 that sends the header.
    if (none.response?.status !== 200 || noneHeader === undefined)
      return partly(findings, [
        `the count after a search: a search for a term nothing holds got ${none.response ? `${none.response.status}${noneHeader === undefined ? ' without X-Total-Count' : ''}` : none.error}`,
      ]);
    if (noneHeader !== '0') {
      findings.push({
        severity: 'warning',
        message: 'X-Total-Count ignores the search',
        expected: '0',
        actual: noneHeader,
        exchange: none,
        absolute: true,
      });
    }
    return findings;
  },
};
