import { answered, describeAnswers, identities, preview, recordsOf } from '../model/answers.ts';
import { recountAgain, type Recheck } from '../moment/at-once.ts';
import { listingTotal, needListing, sizeExchanges, type Listing } from '../model/listing.ts';
import { noEvidence } from '../model/skip.ts';
import { pageQuery } from '../model/listing-query.ts';
import type { Finding, ScenarioCheck } from '../model/check.ts';
import type { OperationContext } from '../model/context.ts';

/**
 * A page past the end is 200 [] (assumed: a warning; records there are an error). Past --max-pages the end
 * is the one the kit found, and a last page that only repeats the page before it is records past the end.
 */
export const pagePastEnd: ScenarioCheck = {
  name: 'page_past_end',
  kind: 'scenario',
  description: 'a page past the end is 200 [] (assumed)',
  evidence: 'the listing read to its end (or its end found), and an answer for the page after it',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 0, true);
    if (missing) return missing;
    const findings: Finding[] = [];
    const repeat = listing.end?.repeated;
    if (repeat) {
      findings.push({
        severity: 'error',
        message: `page ${repeat.page} of size ${listing.size}, after the last page, repeats records of page ${repeat.page - 1}`,
        expected: '200 []',
        actual: `${repeat.records.length} records: ${preview(identities(repeat.records).join(', '), 80)}`,
        exchange: repeat.exchange,
        exchanges: [...(listing.end?.pages.filter((p) => p.page === repeat.page - 1).map((p) => p.exchange) ?? []), repeat.exchange],
      });
    }
    const total = listingTotal(listing)!;
    const size = 10;
    const page = Math.floor(total / size) + 2;
    const exchange = await context.send(pageQuery(context, page, size));
    if (!answered(exchange))
      return findings.length > 0 ? findings : noEvidence(`page ${page} past the end: ${describeAnswers([exchange])}`);
    const response = exchange.response!;
    if (response.status === 200 && Array.isArray(response.json) && response.json.length === 0) return findings;
    const records = Array.isArray(response.json) && response.json.length > 0;
    findings.push({
      severity: records ? 'error' : 'warning',
      message: `page ${page} of size ${size} (past the end of ${total} records) is not 200 []`,
      expected: '200 []',
      actual: `${response.status} ${preview(response.text, 80)}`,
      exchange,
      exchanges: [...sizeExchanges(listing), exchange],
      // Records there may have arrived since the listing was counted: counted again, is the page still not empty?
      ...(!records ? { absolute: true } : listing.complete ? { recheck: recordsPastEnd(context, listing, total, size) } : {}),
    });
    return findings;
  },
};

/** Pages past the end sent with a recount: room for as many records as arrive while the listing is counted again. */
const PAST_PAGES = 5;

/**
 * The listing counted again with the pages of size `size` just past the end as it was and the next few (room for
 * records that arrive meanwhile), all at one moment: whether the first of them past the end now holds records
 * (undefined when so many records arrived that none of them is past it).
 */
const recordsPastEnd = (context: OperationContext, listing: Listing, total: number, size: number): Recheck => {
  const first = Math.floor(total / size) + 2;
  const pages = Array.from({ length: PAST_PAGES }, (_, k) => first + k);
  return recountAgain(
    context,
    listing,
    pages.map((page) => ({ query: pageQuery(context, page, size) })),
    (count, answers) => {
      const k = pages.findIndex((page) => count <= (page - 1) * size);
      const records = k < 0 ? undefined : recordsOf(answers[k]!);
      return records ? records.length > 0 : undefined;
    },
  );
};
