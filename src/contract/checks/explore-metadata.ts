import { movedCount } from '../explore/moved-page.ts';
import { PAST_READ } from '../versions/rule.ts';
import { notApplicable } from '../model/skip.ts';
import { recordsOf } from '../records.ts';
import type { ScenarioCheck } from '../model/check.ts';
import { answerTo, exploreModel, unplacedBy, type Judgement } from '../explore/explore.ts';
import { parseLinks } from './link-header.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import { countHeader, linksHeader } from '../model/listing-query.ts';
import type { ExplorationState } from '../explore/exploration-state.ts';
import type { GeneratedRequest, ResolvedRequest } from '../material/generated-request.ts';
import type { Listing } from '../model/listing.ts';
import type { OperationContext } from '../model/context.ts';
import type { Exchange } from '../types.ts';

type Fail = (message: string, expected: string, actual: string) => Judgement;

/** The count of records a request's term finds, and the exchanges it rests on; past --max-pages, its whole answer when it fits. */
async function countOf(
  state: Pick<ExplorationState, 'model' | 'reference'>,
  term: string,
  listing: Listing,
): Promise<{ count: number; rests: readonly Exchange[] } | Judgement> {
  const { model, reference } = state;
  // What the count rests on: the model's pages, the pages that found its end, or the term's whole answer.
  if (model.complete || term === '') return { count: model.count(term), rests: model.complete ? model.pageExchanges : model.sizeExchanges };
  const whole = await reference.whole(term, listing.maxPages);
  if ('unusable' in whole) return { kind: 'unusable', exchange: whole.unusable };
  if (!whole.complete) return { kind: 'beyond' };
  return { count: whole.records.length, rests: whole.exchanges };
}

/** Link's first/prev/next/last against the pages they should point at, keeping the size and the search. */
function judgeLinks(context: OperationContext, request: ResolvedRequest, exchange: Exchange, count: number, fail: Fail): Judgement {
  const names = context.parameters;
  const link = linksHeader(context, exchange)!;
  const where = describeRequest(request);
  const term = request.term?.text ?? '';
  const links = parseLinks(link, exchange.request.url);
  if (!links) return fail(`${where}: Link does not parse as RFC 8288`, '<url>; rel="..."', link);
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
    if (!url) return fail(`${where}: Link has no rel="${rel}"`, `page ${pages.join(' or ')}`, link);
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
    // Read as the server reads it: parsed (any order, any encoding), and an empty search equal to none where the
    // spec says so (x-empty-means-absent).
    const same = search === term || (names.search.emptyMeansAbsent === true && (search ?? '') === '' && term === '');
    if (request.term && !same)
      return fail(`${where}: Link rel="${rel}" drops or changes the search`, `${names.search.name}=${term}`, url.href);
  }
  return { kind: 'pass' };
}

const describeRequest = (request: ResolvedRequest) =>
  `page ${request.page} of size ${request.size}${request.term ? ` searching ${JSON.stringify(request.term.text)}` : ''}`;

/** One generated request's X-Total-Count and Link against the model. */
async function judgeGenerated(
  context: OperationContext,
  state: ExplorationState,
  listing: Listing,
  generated: GeneratedRequest,
): Promise<Judgement> {
  // The model and the reference pages as they are now: a re-sync replaces them.
  const { model, reference } = state;
  const answer = await answerTo(state, generated);
  if ('kind' in answer) return answer;
  const { request, exchange } = answer;
  if (!recordsOf(exchange)) return { kind: 'unusable', exchange };
  const counted = await countOf({ model, reference }, request.term?.text ?? '', listing);
  if ('kind' in counted) return counted;
  const { rests } = counted;
  const term = request.term?.text ?? '';
  const fail: Fail = (message, expected, actual) => ({
    kind: 'fail',
    finding: { severity: 'warning', message, expected, actual, exchange, exchanges: [exchange, ...rests] },
  });
  const total = countHeader(context, exchange);
  let count = counted.count;
  if (total !== undefined && total !== String(count)) {
    // Another version of the listing (records arrived, a search index behind them) may give that count: judged by the rule.
    const where = `${describeRequest(request)}: X-Total-Count is not the number of records the term finds`;
    const verdict = await judgeAnswer(
      context.versions,
      exchange,
      [{ term, count: true }],
      (why, expected) => ({
        severity: 'warning',
        message: `${where}: ${why}`,
        expected: expected ?? String(count),
        actual: total,
        exchange,
        exchanges: [exchange, ...rests],
      }),
      () => context.send(request.query),
    );
    if (verdict.kind === 'finding') return { kind: 'fail', finding: verdict.finding };
    // Past the records read the rule has no version to count; the target's own count, moved by what arrived, does.
    const moved = () => movedCount(context, exchange, Number(total), { term, counted: count, exchanges: rests });
    if (verdict.kind === 'unknown' && !(verdict.why === PAST_READ && (await moved())))
      return unplacedBy(verdict.why, fail(where, String(count), total));
    count = Number(total);
  }
  if (linksHeader(context, exchange) === undefined) return { kind: 'pass' };
  return judgeLinks(context, request, exchange, count, fail);
}

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
  grows: 'covering',
  description: 'generated requests get the X-Total-Count and Link the model expects, when sent (assumed)',
  evidence: 'the listing read to its end (or its end found) with at least 1 record, and 200 answers to generated requests',
  run: (context) =>
    exploreModel(context, 'every generated request needed a count beyond the pages read', judgeGenerated, async (state) => {
      const first = await state.send({});
      if (recordsOf(first) && countHeader(context, first) === undefined && linksHeader(context, first) === undefined) {
        return notApplicable('the target sends neither X-Total-Count nor Link (optional headers)');
      }
      return undefined;
    }),
};
