import { answered, describeAnswers, needListing, noEvidence, pageQuery, preview, type ScenarioCheck } from '../check.ts';

/** A page past the end is 200 with an empty array (assumed: a warning; records there are an error). */
export const pagePastEnd: ScenarioCheck = {
  name: 'page_past_end',
  kind: 'scenario',
  description: 'a page past the end is 200 [] (assumed)',
  evidence: 'the listing read to its end, and an answer for the page after it',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 0, true);
    if (missing) return missing;
    const size = 10;
    const page = Math.floor(listing.records.length / size) + 2;
    const exchange = await context.send(pageQuery(context, page, size));
    if (!answered(exchange)) return noEvidence(`page ${page} past the end: ${describeAnswers([exchange])}`);
    const response = exchange.response!;
    if (response.status === 200 && Array.isArray(response.json) && response.json.length === 0) return [];
    const records = Array.isArray(response.json) && response.json.length > 0;
    return [
      {
        severity: records ? 'error' : 'warning',
        message: `page ${page} of size ${size} (past the end of ${listing.records.length} records) is not 200 []`,
        expected: '200 []',
        actual: `${response.status} ${preview(response.text, 80)}`,
        exchange,
      },
    ];
  },
};
