import { answered, describeAnswers, preview } from '../model/answers.ts';
import { identities } from '../records.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import { listingTotal, needListing, sizeExchanges } from '../model/listing.ts';
import { noEvidence } from '../model/skip.ts';
import { pageQuery, sentClaim } from '../model/listing-query.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { Finding } from '../types.ts';

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
    const finding = (why?: string): Finding => ({
      severity: records ? 'error' : 'warning',
      message: `page ${page} of size ${size} (past the end of ${total} records) is not 200 []${why ? `: ${why}` : ''}`,
      expected: '200 []',
      actual: `${response.status} ${preview(response.text, 80)}`,
      exchange,
      exchanges: [...sizeExchanges(listing), exchange],
      ...(!records ? { absolute: true } : {}),
    });
    if (!records || response.status !== 200) return [...findings, finding()];
    // Records there may have arrived since the listing was counted: by the versions rule, a version admissible for
    // its time with that many records explains them.
    const verdict = await judgeAnswer(context.versions, exchange, [sentClaim(context.parameters, exchange)], (why) => finding(why));
    if (verdict.kind === 'finding') findings.push(verdict.finding);
    if (verdict.kind === 'unknown') findings.push(verdict.fallback);
    return findings;
  },
};
