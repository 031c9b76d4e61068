import { preview } from '../model/answers.ts';
import { identities, identity, recordsOf } from '../records.ts';
import type { OperationContext } from '../model/context.ts';
import type { Listing } from '../model/listing.ts';
import type { ScenarioCheck } from '../model/check.ts';
import { answerTo, exploreModel, unplacedBy, type Judgement } from '../explore/explore.ts';
import type { ExplorationState } from '../explore/exploration-state.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import type { GeneratedRequest } from '../material/generated-request.ts';
import type { Exchange } from '../types.ts';
import { containsTerm } from '../material/search-term.ts';
import { caseAmbiguous } from '../material/case-forms.ts';
import { newestSearched } from '../explore/newest-searched.ts';
import { lagFollowed } from '../explore/lag-followed.ts';

/**
 * Generated requests judged against the model under the spec's assumptions (warnings): the records a
 * term finds (a case-insensitive substring of any string field; empty means all), in the listing's order,
 * and 200 [] past the end. A listing longer than --max-pages is judged where its records are known (the
 * pages read, past the end found); a search narrows it, and a search's answer that fits in --max-pages is
 * judged whole: the records read that contain the term first, in order, and every result containing it. Last, a
 * record that arrived during the run is searched for (see newestSearched), and an index seen behind is followed (lagFollowed).
 */
export const exploreSearch: ScenarioCheck = {
  name: 'explore_search',
  kind: 'scenario',
  group: 'exploration',
  background: true,
  grows: 'covering',
  description:
    'generated searches and pages find exactly the records the model expects, in order, 200 [] past the end, and a record that arrived during the run (assumed)',
  evidence:
    'the listing read to its end (or its end found) with at least 1 record, and generated requests answered without a 5xx or redirect',
  run: async (context) => {
    const explored = await exploreModel(context, 'every generated request needed records beyond those read', judgeSearch);
    // Last, once records had time to arrive: one of them searched for (see newestSearched).
    const newest = await newestSearched(context);
    await lagFollowed(context);
    if (!newest) return explored;
    if ('skip' in explored) return [newest];
    return Array.isArray(explored) ? [...explored, newest] : { ...explored, findings: [...explored.findings, newest] };
  },
};

/** One generated request's records against those the model expects. */
async function judgeSearch(
  context: OperationContext,
  state: ExplorationState,
  listing: Listing,
  generated: GeneratedRequest,
): Promise<Judgement> {
  const answer = await answerTo(state, generated);
  if ('kind' in answer) return answer;
  const { request, exchange } = answer;
  const term = request.term?.text ?? '';
  const start = (request.page - 1) * request.size;
  const where = `page ${request.page} of size ${request.size}${request.term ? ` searching ${JSON.stringify(preview(term, 40))}` : ''}`;
  // Whether the run has seen the listing move: its end found at the start then says nothing of now.
  const seen = context.versions.history.seen();
  const moved = seen !== undefined && seen.newest !== seen.oldest;
  const expected = await expectedResults(state, listing, term, { start, size: request.size, moved });
  if ('judgement' in expected) return expected.judgement;
  // Judged against what the expectation rests on: the model's pages, or the target's whole answer.
  const fail = (message: string, want: string, actual: string, shown: Exchange = exchange): Judgement => ({
    kind: 'fail',
    finding: { severity: 'warning', message, expected: want, actual, exchange: shown, exchanges: [...new Set([shown, ...expected.rests])] },
  });
  if ('wrong' in expected) {
    const { message, expected: want, actual, shown } = expected.wrong;
    return fail(message, want, actual, shown);
  }
  const want = identities(expected.records);
  const records = recordsOf(exchange);
  if (!records)
    return fail(
      `${where} is not 200 with a JSON array`,
      want.length === 0 ? '200 []' : '200 with records',
      `${exchange.response!.status} ${preview(exchange.response!.text, 80)}`,
    );
  const ids = identities(records);
  // Where the model is the listing itself under the assumed rule, judged by the versions rule either way: agreeing with
  // the listing as first read, it may still be an index that never took in what arrived since; differing, another
  // version (records arrived, an index behind them) may give it.
  const byModel = state.model.complete && !caseAmbiguous(term);
  const asModel = ids.join() === want.join();
  if (asModel && !byModel) return { kind: 'pass' };
  const verdict = await judgeAnswer(
    context.versions,
    exchange,
    [{ term, page: { offset: start, size: request.size } }],
    (why, version) => ({
      severity: 'warning',
      message: `${where} ${asModel ? 'is what the listing as first read gives' : 'differs from the model'} (${expected.how}): ${why}`,
      expected: version ?? (want.join(', ') || '[]'),
      actual: ids.join(', ') || '[]',
      exchange,
      exchanges: [...new Set([exchange, ...expected.rests])],
    }),
    () => context.send(request.query),
  );
  if (verdict.kind === 'pass') return { kind: 'pass' };
  if (verdict.kind === 'finding') return { kind: 'fail', finding: verdict.finding };
  if (asModel) return { kind: 'pass' };
  return unplacedBy(
    verdict.why,
    fail(`${where} differs from the model (${expected.how})`, want.join(', ') || '[]', ids.join(', ') || '[]'),
  );
}

/** What the model expects, and the exchanges that expectation rests on (`rests`). */
type Expected =
  | { readonly records: readonly Record<string, unknown>[]; readonly how: string; readonly rests: readonly Exchange[] }
  | { readonly judgement: Judgement }
  | {
      readonly wrong: { readonly message: string; readonly expected: string; readonly actual: string; readonly shown?: Exchange };
      readonly rests: readonly Exchange[];
    };

/**
 * The records the model expects at start..start+size-1 with no search, on a listing longer than --max-pages: the
 * pages read, and nothing past its end; between them, not known, nor past the end once the listing `moved` (records
 * arriving move its end; page_past_end judges that by the versions).
 */
function expectedOfPages(model: ExplorationState['model'], start: number, size: number, moved: boolean): Expected {
  const total = model.total!;
  if (start >= total && moved) return { judgement: { kind: 'beyond' } };
  if (start >= total) return { records: [], how: `the listing ends after ${total} records`, rests: model.sizeExchanges };
  if (start + size <= model.records.length)
    return {
      records: model.records.slice(start, start + size),
      how: `records ${start}..${start + size - 1} of the pages read`,
      rests: model.pagesHolding(start, size),
    };
  return { judgement: { kind: 'beyond' } };
}

/** The records the model expects at start..start+size-1 for `term`, or why that is not known (`moved`: see expectedOfPages). */
async function expectedResults(
  state: ExplorationState,
  listing: Listing,
  term: string,
  { start, size, moved }: { readonly start: number; readonly size: number; readonly moved: boolean },
): Promise<Expected> {
  const { model, reference } = state;
  // A term the case mappings disagree on has no one right set: judged on the target's whole answer instead.
  if (model.complete && !caseAmbiguous(term)) {
    const found = model.matches(term);
    return {
      records: found.slice(start, start + size),
      how: `${found.length} records contain the term, ignoring case, in listing order`,
      rests: model.pageExchanges,
    };
  }
  if (term === '') return expectedOfPages(model, start, size, moved);
  const whole = await reference.whole(term, listing.maxPages);
  if ('unusable' in whole) return { judgement: { kind: 'unusable', exchange: whole.unusable } };
  if (!whole.complete) return { judgement: { kind: 'beyond' } };
  // The answer must hold the records read that contain the term first, in order, and only records that contain it;
  // once the listing moved, after those that arrived since it was read (newer than any read, at its head).
  const head = identities(model.matches(term));
  const arrived = moved ? whole.records.findIndex((r) => model.has(identity(r))) : 0;
  const lead = arrived < 0 ? whole.records.length : arrived;
  const got = identities(whole.records.slice(lead, lead + head.length));
  const shown = whole.first;
  // The target's whole answer, and the pages read whose records containing the term must lead it.
  const rests = [...whole.exchanges, ...model.pageExchanges];
  // Where the case mappings disagree (İ, ß...), which records lead depends on the target's: only strays count.
  if (!caseAmbiguous(term) && got.join() !== head.join()) {
    return {
      wrong: {
        message: `the answer searching ${JSON.stringify(preview(term, 40))} does not start with the ${head.length} records of the first ${model.records.length} that contain it, in listing order`,
        expected: preview(head.join(', ') || '[]', 200),
        actual: preview(got.join(', ') || '[]', 200),
        ...(shown ? { shown } : {}),
      },
      rests,
    };
  }
  const strays = whole.records.filter((r) => !containsTerm(r, term));
  if (strays.length > 0) {
    return {
      wrong: {
        message: `${strays.length} of ${whole.records.length} results searching ${JSON.stringify(preview(term, 40))} do not contain it, ignoring case`,
        expected: 'every result contains the term',
        actual: identities(strays.slice(0, 3)).join(', '),
        ...(shown ? { shown } : {}),
      },
      rests: whole.exchanges,
    };
  }
  return {
    records: whole.records.slice(start, start + size),
    how: `the target's whole answer for the term, ${whole.records.length} records, each containing it, those read first`,
    rests,
  };
}
