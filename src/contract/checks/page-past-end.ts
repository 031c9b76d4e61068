import type { ScenarioCheck } from '../check.ts';
import { pageQuery, preview } from '../check.ts';

/** A page past the end is 200 with an empty array (assumed: a warning). */
export const pagePastEnd: ScenarioCheck = {
  name: 'page_past_end',
  kind: 'scenario',
  description: 'a page past the end is 200 [] (assumed)',
  async run(context) {
    const listing = await context.listing();
    if (listing.problem) return { skip: `the listing could not be read (${listing.problem})` };
    if (!listing.complete) return { skip: 'the listing was not read to its end (--max-pages)' };
    const size = 10;
    const page = Math.floor(listing.records.length / size) + 2;
    const exchange = await context.send(pageQuery(context, page, size));
    const response = exchange.response;
    if (!response || response.status >= 500) return [];
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
