import { needListing, notApplicable, recordsOf, type ScenarioCheck } from '../check.ts';
import { explore, usable, type Judgement } from '../explore/explore.ts';
import { explorationOf } from '../explore/exploration-state.ts';
import { requestArbitrary, resolveRequest } from '../explore/generated-request.ts';
import { parseLinks } from './link-header.ts';

/**
 * Generated requests' X-Total-Count and Link, when sent, against the model (warnings: both are
 * assumptions): the count of records the term finds, and first/prev/next/last pages for it, keeping the
 * search. Needs the whole listing.
 */
export const exploreMetadata: ScenarioCheck = {
  name: 'explore_metadata',
  kind: 'scenario',
  description: 'generated requests get the X-Total-Count and Link the model expects, when sent (assumed)',
  evidence: 'the listing read to its end with at least 1 record, and 200 answers to generated requests',
  async run(context) {
    const missing = needListing(await context.listing(), 1, true);
    if (missing) return missing;
    const { model, send, wrong } = await explorationOf(context);
    const first = await send({});
    if (recordsOf(first) && first.response!.headers['x-total-count'] === undefined && first.response!.headers.link === undefined) {
      return notApplicable('the target sends neither X-Total-Count nor Link (optional headers)');
    }
    const names = context.parameters;
    return explore(context, requestArbitrary(model, names, wrong.length), async (generated): Promise<Judgement> => {
      if (generated.credentials !== undefined) return { kind: 'pass' };
      const request = resolveRequest(generated, model, names);
      const exchange = await send(request.query);
      const unanswered = usable(exchange);
      if (unanswered) return unanswered;
      if (!recordsOf(exchange)) return { kind: 'unusable', exchange };
      const term = request.term?.text ?? '';
      const count = model.matches(term).length;
      const where = `page ${request.page} of size ${request.size}${request.term ? ` searching ${JSON.stringify(term)}` : ''}`;
      const fail = (message: string, expected: string, actual: string): Judgement => ({
        kind: 'fail',
        finding: { severity: 'warning', message, expected, actual, exchange },
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
    });
  },
};
