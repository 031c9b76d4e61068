import type { ScenarioCheck } from '../model/check.ts';
import { identities, needRecords, recordsOf } from '../model/answers.ts';
import { needListing } from '../model/listing.ts';
import { noEvidence } from '../model/skip.ts';
import { pageQuery, firstPage, defaultPageSize } from '../model/listing-query.ts';
import { pickSearchTerm } from '../material/search-term.ts';
import { searchCaughtUp } from '../moment/search-catch-up.ts';

/** Searching a term in other letter case gives the same records (assumed: a warning). */
export const searchCaseInsensitive: ScenarioCheck = {
  name: 'search_case_insensitive',
  kind: 'scenario',
  description: 'a term in other letter case gives the same records (assumed)',
  evidence: 'a record with a distinctive value that has letters, and 200 arrays with results for both searches',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 1);
    if (missing) return missing;
    const picked = await pickSearchTerm(context);
    const swapped = picked && [...picked.term].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    if (!picked || !swapped || swapped === picked.term) return noEvidence('no record has a distinctive value with letters to search for');
    const name = context.parameters.search.name;
    const search = (term: string) =>
      context.send(pageQuery(context, firstPage(context.parameters), defaultPageSize(context.parameters), { [name]: term }));
    let [a, b] = [await search(picked.term), await search(swapped)];
    // Nothing found on a listing that moves on: the search may be behind its data (an index refreshed apart), so
    // both are looked at again.
    const none = (e: typeof a) => recordsOf(e)?.length === 0;
    if (none(a) && none(b))
      await searchCaughtUp(context, listing, async () => {
        [a, b] = [await search(picked.term), await search(swapped)];
        return !none(a) || !none(b);
      });
    const unusable = needRecords([a, b], 'searching a term in two letter cases');
    if (unusable) return unusable;
    const [x, y] = [recordsOf(a)!, recordsOf(b)!];
    // Nothing found in the term's own case: what other case finds proves nothing about case.
    if (x.length === 0 && y.length === 0)
      return noEvidence(`searching ${JSON.stringify(picked.term)}, taken from a record, found nothing in either case`);
    if (identities(x).join() === identities(y).join()) return [];
    return [
      {
        severity: 'warning',
        message: `searching ${JSON.stringify(swapped)} differs from ${JSON.stringify(picked.term)}`,
        expected: identities(x).join(', ') || '[]',
        actual: identities(y).join(', ') || '[]',
        exchange: b,
        exchanges: [a, b],
      },
    ];
  },
};
