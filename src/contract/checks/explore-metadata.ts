import { needListing, tooLong } from '../model/listing.ts';
import { notApplicable } from '../model/skip.ts';
import { recordsOf } from '../model/answers.ts';
import type { ScenarioCheck } from '../model/check.ts';
import { explore, usable, type Judgement } from '../explore/explore.ts';
import { explorationOf } from '../explore/exploration-state.ts';
import { requestArbitrary } from '../material/generated-request.ts';
import { parseLinks } from './link-header.ts';

/**
 * Generated requests' X-Total-Count and Link, when sent, against the model (warnings: both are
 * assumptions): the count of records the term finds, and first/prev/next/last pages for it, keeping the
 * search. Past --max-pages the count is the end found, or, for a term, its whole answer when that fits.
 */
export const exploreMetadata: ScenarioCheck = {
  name: 'explore_metadata',
  kind: 'scenario',
  group: 'exploration',
  background: true,
  description: 'generated requests get the X-Total-Count and Link the model expects, when sent (assumed)',
  evidence: 'the listing read to its end (or its end found) with at least 1 record, and 200 answers to generated requests',
  async run(context) {
    const listing = await context.listing();
    const missing = needListing(listing, 1, true);
    if (missing) return missing;
    const state = await explorationOf(context);
    const { wrong } = state;
    const first = await state.send({});
    if (recordsOf(first) && first.response!.headers['x-total-count'] === undefined && first.response!.headers.link === undefined) {
      return notApplicable('the target sends neither X-Total-Count nor Link (optional headers)');
    }
    const names = context.parameters;
    return explore(
      context,
      requestArbitrary(state.model, names, wrong.length),
      async (generated): Promise<Judgement> => {
        if (generated.credentials !== undefined) return { kind: 'pass' };
        const { model, send, reference } = state;
        const request = state.resolve(generated);
        const exchange = await send(request.query);
        const unanswered = usable(exchange);
        if (unanswered) return unanswered;
        if (!recordsOf(exchange)) return { kind: 'unusable', exchange };
        const term = request.term?.text ?? '';
        // Past --max-pages, a term's count is known when its whole answer fits in --max-pages pages.
        let count = model.count(term);
        // What the count rests on: the model's pages, the pages that found its end, or the term's whole answer.
        let rests = model.complete ? model.pageExchanges : model.sizeExchanges;
        if (!model.complete && term !== '') {
          const whole = await reference.whole(term, listing.maxPages);
          if ('unusable' in whole) return { kind: 'unusable', exchange: whole.unusable };
          if (!whole.complete) return { kind: 'beyond' };
          count = whole.records.length;
          rests = whole.exchanges;
        }
        const where = `page ${request.page} of size ${request.size}${request.term ? ` searching ${JSON.stringify(term)}` : ''}`;
        const fail = (message: string, expected: string, actual: string): Judgement => ({
          kind: 'fail',
          finding: {
            severity: 'warning',
            message,
            expected,
            actual,
            exchange,
            exchanges: [exchange, ...rests],
          },
        });
        const headers = exchange.response!.headers;
        const total = headers['x-total-count'];
        if (total !== undefined && total !== String(count))
          return fail(`${where}: X-Total-Count is not the number of records the term finds`, String(count), total);
        if (headers.link === undefined) return { kind: 'pass' };
        const links = parseLinks(headers.link, exchange.request.url);
        if (!links) return fail(`${where}: Link does not parse as RFC 8288`, '<url>; rel="..."', headers.link);
        const last = Math.max(1, Math.ceil(count / request.size));
        const p = request.page;
        const expected: Record<string, readonly number[] | undefined> = {
          first: [1],
          // Past the end, prev may be the page before or the last page: both are sensible.
          prev: p > 1 ? [...new Set([p - 1, Math.min(p - 1, last)])] : undefined,
          next: p < last ? [p + 1] : undefined,
          last: [last],
        };
        for (const [rel, pages] of Object.entries(expected)) {
          const url = links.get(rel);
          if (pages === undefined) {
            if (url) return fail(`${where}: Link has rel="${rel}", but there is no such page`, 'no such link', url.href);
            continue;
          }
          if (!url) return fail(`${where}: Link has no rel="${rel}"`, `page ${pages.join(' or ')}`, headers.link);
          const got = url.searchParams.get(names.page.name);
          const size = url.searchParams.get(names.pageSize.name);
          const search = url.searchParams.get(names.search.name);
          if (!pages.map(String).includes(got ?? '') || (size !== null && size !== String(request.size))) {
            return fail(
              `${where}: Link rel="${rel}" points at the wrong page`,
              `page=${pages.join(' or ')}, ${names.pageSize.name}=${request.size}`,
              url.href,
            );
          }
          if (request.term && search !== term)
            return fail(`${where}: Link rel="${rel}" drops or changes the search`, `${names.search.name}=${term}`, url.href);
        }
        return { kind: 'pass' };
      },
      {
        beyond: () => tooLong(listing, 'every generated request needed a count beyond the pages read'),
        resync: state.resync,
        prefetch: state.sendAhead,
        covering: state.covering,
      },
    );
  },
};
