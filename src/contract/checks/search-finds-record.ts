import { withListing, type ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { needRecords } from '../model/answers.ts';
import { identities, identity, recordsOf } from '../records.ts';
import { pagesHolding, tooLong, type Listing } from '../model/listing.ts';
import { noEvidence, type Skip } from '../model/skip.ts';
import type { OperationContext } from '../model/context.ts';
import { firstPage, pageQuery, largestPageSize } from '../model/listing-query.ts';
import { containsTerm, pickSearchTerm } from '../material/search-term.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import { searchHeadQuery } from '../model/head-read.ts';

/** A term taken from a record finds that record, and every result contains the term (assumed: warnings). */
export const searchFindsRecord: ScenarioCheck = {
  name: 'search_finds_record',
  kind: 'scenario',
  description: 'a term taken from a record finds it, and every result contains the term (assumed)',
  evidence: 'a record with a distinctive string value, and a 200 array for the search',
  run: withListing(1, async (context, listing) => {
    const picked = await pickSearchTerm(context);
    if (!picked) return noEvidence('no record has a distinctive string value to search for');
    const max = largestPageSize(context.parameters);
    const read = await readSearch(context, listing, picked, max);
    if ('skip' in read) return read;
    const { records, pages, ended } = read;
    const exchange = pages.at(-1);
    const findings: Finding[] = [];
    const unseen = !identities(records).includes(identity(picked.record));
    // Not found in --max-pages pages of an answer that goes on: nothing known either way.
    const beyond = unseen && !ended && !listing.complete;
    if (unseen && !beyond) {
      const missed = (why: string, expected = `a result ${identity(picked.record)}`): Finding => ({
        severity: 'warning',
        message: `searching ${JSON.stringify(picked.term)} did not find ${identity(picked.record)}${why ? `: ${why}` : ''}`,
        expected,
        actual: `${records.length} results`,
        exchange,
        // The search's pages, and the listing's page the record was read from.
        exchanges: [...pages, ...pagesHolding(listing, listing.records.indexOf(picked.record), 1)],
      });
      // By the versions rule: a version admissible for its time without the record (it arrived a moment ago, a
      // search index not yet refreshed with it, the window moved it out) explains an answer without it.
      const search = () => context.send(searchHeadQuery(context, picked.term));
      const verdict = listing.complete
        ? await judgeAnswer(context.versions, pages[0]!, [{ term: picked.term, page: { offset: 0, size: max } }], missed, search)
        : { kind: 'finding' as const, finding: missed('') };
      if (verdict.kind !== 'pass') findings.push(verdict.kind === 'finding' ? verdict.finding : verdict.fallback);
    }
    const strays = records.filter((r) => !containsTerm(r, picked.term));
    if (strays.length > 0) {
      findings.push({
        severity: 'warning',
        message: `${strays.length} of ${records.length} results do not contain ${JSON.stringify(picked.term)}`,
        expected: 'every result contains the term',
        actual: identities(strays.slice(0, 3)).join(', '),
        exchange,
        exchanges: pages,
      });
    }
    return beyond && findings.length === 0
      ? tooLong(listing, `the answer searching ${JSON.stringify(picked.term)} is longer too, and the record was not in it`)
      : findings;
  }),
};

/**
 * The answer searching `picked.term`, in pages of `max`: the value is distinctive among the records read; past them,
 * other records may share it, so the answer is read on until the record shows, the answer ends (`ended`), or
 * --max-pages pages were read. A skip when a page is not a 200 JSON array.
 */
async function readSearch(
  context: OperationContext,
  listing: Listing,
  picked: { readonly term: string; readonly record: Record<string, unknown> },
  max: number,
): Promise<{ readonly records: Record<string, unknown>[]; readonly pages: Exchange[]; readonly ended: boolean } | Skip> {
  const records: Record<string, unknown>[] = [];
  const pages: Exchange[] = [];
  let ended = false;
  const first = firstPage(context.parameters);
  for (let page = first; page < first + (listing.complete ? 1 : listing.maxPages); page += 1) {
    const exchange = await context.send(pageQuery(context, page, max, { [context.parameters.search.name]: picked.term }));
    pages.push(exchange);
    const unusable = needRecords([exchange], `searching ${JSON.stringify(picked.term)}`);
    if (unusable) return unusable;
    const batch = recordsOf(exchange)!;
    records.push(...batch);
    ended = batch.length < max;
    if (ended || identities(batch).includes(identity(picked.record))) break;
  }
  return { records, pages, ended };
}
