import { withListing, type ScenarioCheck } from '../model/check.ts';
import { needRecords } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { noEvidence } from '../model/skip.ts';
import { pageQuery, firstPage, defaultPageSize } from '../model/listing-query.ts';
import { pickSearchTerm } from '../material/search-term.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import { swapCase } from '../material/case-forms.ts';

/** Searching a term in other letter case gives the same records (assumed: a warning). */
export const searchCaseInsensitive: ScenarioCheck = {
  name: 'search_case_insensitive',
  kind: 'scenario',
  description: 'a term in other letter case gives the same records (assumed)',
  evidence: 'a record with a distinctive value that has letters, and 200 arrays with results for both searches',
  run: withListing(1, async (context) => {
    const picked = await pickSearchTerm(context);
    const swapped = picked && swapCase(picked.term);
    if (!picked || !swapped || swapped === picked.term) return noEvidence('no record has a distinctive value with letters to search for');
    const name = context.parameters.search.name;
    const search = (term: string) =>
      context.send(pageQuery(context, firstPage(context.parameters), defaultPageSize(context.parameters), { [name]: term }));
    const [a, b] = [await search(picked.term), await search(swapped)];
    const unusable = needRecords([a, b], 'searching a term in two letter cases');
    if (unusable) return unusable;
    const [x, y] = [recordsOf(a)!, recordsOf(b)!];
    if (identities(x).join() === identities(y).join()) {
      // Nothing found in either case, on a listing that holds the record: proves nothing about case, unless a
      // version of the listing admissible for its time (the record not in it yet, or not yet in a search index) explains it.
      if (x.length > 0) return [];
      const claim = { term: picked.term, page: { offset: 0, size: defaultPageSize(context.parameters) } };
      const verdict = await judgeAnswer(
        context.versions,
        a,
        [claim],
        (why) => ({ severity: 'warning', message: why, exchange: a }),
        () => search(picked.term),
      );
      return verdict.kind === 'pass'
        ? []
        : noEvidence(`searching ${JSON.stringify(picked.term)}, taken from a record, found nothing in either case`);
    }
    // The term's own case found it: the other case must find what a version admissible for its time finds.
    const claim = { term: swapped, page: { offset: 0, size: defaultPageSize(context.parameters) } };
    const verdict = await judgeAnswer(
      context.versions,
      b,
      [claim],
      (why, expected) => ({
        severity: 'warning',
        message: `searching ${JSON.stringify(swapped)} differs from ${JSON.stringify(picked.term)}: ${why}`,
        expected: identities(x).join(', ') || expected || '[]',
        actual: identities(y).join(', ') || '[]',
        exchange: b,
        exchanges: [a, b],
      }),
      () => search(swapped),
    );
    if (verdict.kind === 'pass') return [];
    if (verdict.kind === 'finding') return [verdict.finding];
    // Past what the run read of the listing no version tells: the two cases are compared with each other.
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
  }),
};
