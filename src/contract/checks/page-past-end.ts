import { answered, describeAnswers, preview } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { AGAIN_TOGETHER, askedTogether, endShown } from '../model/asked-together.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import { listingTotal, needListing, sizeExchanges, type Listing } from '../model/listing.ts';
import { noEvidence } from '../model/skip.ts';
import { countOf, pageQuery, sentClaim } from '../model/listing-query.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { Finding } from '../types.ts';
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
    const findings: Finding[] = await repeatedPastEnd(context, listing);
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
    if (verdict.kind !== 'unknown') return findings;
    // Past --max-pages the versions know no record there: the end is looked for again, with a page past it, at once.
    const now = await pastEndTogether(context, listing.size, total, size);
    if (!now) return [...findings, verdict.fallback];
    const found = recordsOf(now.exchange);
    if (found && found.length === 0) return findings;
    return [
      ...findings,
      {
        ...finding(),
        message: `page ${now.page} of size ${size} (past the end of ${now.total} records, as the last pages read with it showed) is not 200 []`,
        actual: `${now.exchange.response?.status} ${preview(now.exchange.response?.text ?? '', 80)}`,
        exchange: now.exchange,
        exchanges: now.answers,
      },
    ];
  },
};

/**
 * The page after the last that the end's search found repeating records of the page before it. Read after that page,
 * records arriving meanwhile push its last ones onto it: asked together, it repeats them again, or holds no record,
 * or the listing grew past it.
 */
async function repeatedPastEnd(context: OperationContext, listing: Listing): Promise<Finding[]> {
  const repeat = listing.end?.repeated;
  if (!repeat) return [];
  const again = await askedTogether(
    context,
    [repeat.page - 1, repeat.page].map((p) => pageQuery(context, p, listing.size)),
    ([before, after]) => {
      const [a, b] = [recordsOf(before!), recordsOf(after!)];
      return a !== undefined && b !== undefined && !(b.length > 0 && identities(b).every((id) => identities(a).includes(id)));
    },
  );
  if (again.agreed) return [];
  return [
    {
      severity: 'error',
      message: `page ${repeat.page} of size ${listing.size}, after the last page, repeats records of page ${repeat.page - 1}${AGAIN_TOGETHER}`,
      expected: '200 []',
      actual: `${repeat.records.length} records: ${preview(identities(repeat.records).join(', '), 80)}`,
      exchange: repeat.exchange,
      exchanges: [
        ...(listing.end?.pages.filter((p) => p.page === repeat.page - 1).map((p) => p.exchange) ?? []),
        repeat.exchange,
        ...again.answers,
      ],
    },
  ];
}

/**
 * A page of `size` past the end, read together with the last pages at the largest size `max` that show where the
 * listing ends at that moment (or by the count it sent itself); looked for again from there when the listing grew
 * past the page (records arriving), up to 3 times. Undefined when no read showed the end behind its page.
 */
async function pastEndTogether(context: OperationContext, max: number, total: number, size: number) {
  let guess = total;
  for (let round = 0; round < 3; round += 1) {
    const atEnd = Math.max(1, Math.ceil(guess / max));
    const page = Math.floor(guess / size) + 2;
    const queries = [pageQuery(context, atEnd, max), pageQuery(context, atEnd + 1, max), pageQuery(context, page, size)];
    const answers = await Promise.all(context.sendTogether(queries.map((query) => ({ query }))));
    // Where the listing ended as the page past it answered: its own count, else the last pages read with it.
    const shown = countOf(context, answers[2]!) ?? endShown(atEnd, max, answers.slice(0, 2).map(recordsOf));
    if (shown !== undefined && (page - 1) * size >= shown) return { page, total: shown, exchange: answers[2]!, answers };
    guess = shown ?? (atEnd + 1) * max;
  }
  return undefined;
}
