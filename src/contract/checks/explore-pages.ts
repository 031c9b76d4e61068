import { searchAnswerFinding } from '../material/lenient-match.ts';
import { preview } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { needListing } from '../model/listing.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { explore, unplacedBy, usable, type Judgement } from '../explore/explore.ts';
import { explorationOf } from '../explore/exploration-state.ts';
import { requestArbitrary, type GeneratedRequest, type ResolvedRequest } from '../material/generated-request.ts';
import type { AuthVariant } from '../material/wrong-keys.ts';
import type { ExplorationState } from '../explore/exploration-state.ts';
import type { OperationContext } from '../model/context.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import { movedPage } from '../explore/moved-page.ts';
import { PAST_READ } from '../versions/rule.ts';

const absent = (request: ResolvedRequest) => request.term?.kind === 'absent-term';

/** A generated request as sent: its query resolved, the wrong credentials it carries instead of the key, the answer. */
function sendGenerated(state: ExplorationState, generated: GeneratedRequest) {
  const request = state.resolve(generated);
  const credentials = generated.credentials === undefined ? undefined : state.wrong[generated.credentials];
  const options = credentials && { apiKey: credentials.apiKey, ...(credentials.headers ? { headers: credentials.headers } : {}) };
  return { request, credentials, exchange: state.send(request.query, options) };
}

/** Sends what judging `generated` reads: the request, and the target's own pages it is compared with. */
async function prefetchGenerated(state: ExplorationState, generated: GeneratedRequest): Promise<void> {
  const { request, credentials, exchange } = sendGenerated(state, generated);
  await Promise.all([
    exchange,
    credentials || absent(request)
      ? undefined
      : state.reference.prefetch(request.term?.text, (request.page - 1) * request.size, request.size),
  ]);
}

type Fail = (message: string, expected: string, actual: string, absolute?: boolean) => Judgement;

/** How a failure of the answer `exchange` is told, resting also on `against`: the target's own pages it is compared with. */
const failOf =
  (exchange: Exchange, against: readonly Exchange[]): Fail =>
  (message, expected, actual, absolute = false) => ({
    kind: 'fail',
    finding: {
      severity: 'error',
      message,
      expected,
      actual,
      exchange,
      ...(against.length > 0 ? { exchanges: [exchange, ...against] } : {}),
      ...(absolute ? { absolute } : {}),
    } satisfies Finding,
  });

const describeRequest = (request: ResolvedRequest) =>
  `page ${request.page} of size ${request.size}${request.term ? ` searching ${JSON.stringify(preview(request.term.text, 40))}` : ''}`;

/** A request with wrong credentials: no records, and a 4xx. */
function judgeWrongKey(where: string, credentials: AuthVariant, exchange: Exchange): Judgement {
  // The whole key inside other text, accepted, is ignored_auth's warning, not an error here.
  if (credentials.severity === 'warning') return { kind: 'pass' };
  const status = exchange.response!.status;
  const leaked = Array.isArray(exchange.response!.json) && exchange.response!.json.length > 0;
  // A refusal with another status than 401/403 is ignored_auth's warning; accepting is an error here.
  return status < 400 || leaked
    ? failOf(exchange, [])(
        `${where} with ${credentials.label} was answered ${status}${leaked ? ' with records' : ''}`,
        '401 or 403 without records',
        `${status} ${preview(exchange.response!.text, 80)}`,
        true,
      )
    : { kind: 'pass' };
}

/** What no change of data can explain in the records of a page: too many, one twice, a stranger, a search ignored. */
function recordFaults(
  state: Pick<ExplorationState, 'model'>,
  generated: GeneratedRequest,
  request: ResolvedRequest,
  records: readonly Record<string, unknown>[],
  fail: Fail,
): Judgement | undefined {
  const where = describeRequest(request);
  // Without pageSize the size is the spec's assumed default (default_page_size judges it), not a bound.
  if (generated.pageSize !== undefined && records.length > request.size)
    return fail(`${where} holds ${records.length} records`, `at most ${request.size}`, `${records.length} records`, true);
  const ids = identities(records);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) return fail(`${where} holds ${twice} twice`, 'each record once', `${twice} twice`, true);
  const { model } = state;
  const stranger = model.complete ? ids.find((id) => !model.has(id)) : undefined;
  if (stranger)
    return fail(`${where} holds ${stranger}, which is not in the listing`, `records of the ${model.ids.length} listed`, stranger);
  if (request.term?.kind === 'absent-term' && records.length > 0) {
    return fail(
      `${where}: a term no record can contain found ${records.length} records, so the search parameter is ignored`,
      '[]',
      preview(records[0], 80),
      true,
    );
  }
  // One observation, one grade (search_special_terms's): results none of which contains the term, even
  // read leniently, cannot have been found by it.
  const unfound = request.term?.kind === 'hazard' ? searchAnswerFinding(request.term.text, records) : undefined;
  if (unfound?.severity === 'error') return fail(`${where}: ${unfound.message}`, unfound.expected!, unfound.actual!, true);
  return undefined;
}

/** A valid request's answer against the slice of the target's own answer it should be. */
function judgeSlice(
  state: Pick<ExplorationState, 'model' | 'reference'>,
  generated: GeneratedRequest,
  request: ResolvedRequest,
  exchange: Exchange,
  expected: { readonly records: readonly Record<string, unknown>[]; readonly exchanges: readonly Exchange[] },
): Judgement {
  const fail = failOf(exchange, expected.exchanges);
  const where = describeRequest(request);
  const response = exchange.response!;
  if (response.status !== 200) {
    // Past the target's own results, the exact answer is an assumption (explore_search judges it).
    if (expected.records.length === 0) return { kind: 'pass' };
    return fail(
      `${where} was refused with ${response.status}, though the target has results there`,
      '200 with a JSON array',
      `${response.status} ${preview(response.text, 80)}`,
    );
  }
  const records = recordsOf(exchange);
  if (!records) return fail(`${where}: the 200 body is not a JSON array`, 'a JSON array', preview(response.text, 80));
  const fault = recordFaults(state, generated, request, records, fail);
  if (fault) return fault;
  // Without page or pageSize the defaults apply, and they are assumptions: explore_search judges those.
  if (!generated.page || generated.pageSize === undefined) return { kind: 'pass' };
  const ids = identities(records);
  const want = identities(expected.records);
  const start = (request.page - 1) * request.size;
  if (ids.join() !== want.join()) {
    return fail(
      `${where} is not results ${start}..${start + request.size - 1} of the target's own answer read at pageSize ${state.reference.max}`,
      want.join(', ') || '[]',
      ids.join(', ') || '[]',
    );
  }
  return { kind: 'pass' };
}

/**
 * A slice's failure that movement could explain (another page than the target's own answer read at another moment,
 * a record not in the listing as first read) judged by the versions rule: a page a version admissible for its time
 * gives passes; a plain page with its page and size given that none gives is a finding naming the versions. A
 * search's page is held to the spec's assumed rule by the versions, and a default page or size is assumed, so for
 * those only the rule's pass counts: else they are judged the older way.
 */
async function byVersions(
  context: OperationContext,
  { generated, request }: { readonly generated: GeneratedRequest; readonly request: ResolvedRequest },
  exchange: Exchange,
  failed: Judgement,
  /** Whether the page is the target's own pages moved by what arrived between them (see movedPage). */
  moved: () => Promise<boolean>,
): Promise<Judgement> {
  if (failed.kind !== 'fail' || failed.finding.absolute || !recordsOf(exchange)) return failed;
  const term = request.term?.text ?? '';
  const verdict = await judgeAnswer(
    context.versions,
    exchange,
    [{ term, page: { offset: (request.page - 1) * request.size, size: request.size } }],
    (why, expected) => ({ ...failed.finding, message: `${describeRequest(request)}: ${why}`, ...(expected ? { expected } : {}) }),
  );
  if (verdict.kind === 'pass') return { kind: 'pass' };
  const exact = term === '' && generated.page !== undefined && generated.pageSize !== undefined;
  // Past the records read the rule has no version to hold the page to; the target's own pages moved do.
  if (verdict.kind === 'unknown' && verdict.why === PAST_READ && (await moved())) return { kind: 'pass' };
  if (verdict.kind === 'unknown') return unplacedBy(verdict.why, failed);
  return verdict.kind === 'finding' && exact ? { kind: 'fail', finding: verdict.finding } : failed;
}

/** One generated request judged by what the interface states. */
async function judgeGenerated(context: OperationContext, state: ExplorationState, generated: GeneratedRequest): Promise<Judgement> {
  // The model and the reference pages as they are now: a re-sync replaces them.
  const { model, reference } = state;
  const sent = sendGenerated(state, generated);
  const { request, credentials } = sent;
  const exchange = await sent.exchange;
  const unanswered = usable(exchange);
  if (unanswered) return unanswered;
  if (credentials) return judgeWrongKey(describeRequest(request), credentials, exchange);
  const start = (request.page - 1) * request.size;
  // A term no record can contain finds nothing, whatever the target's own answer: none is read for it.
  const expected = absent(request)
    ? { records: [], exchanges: [], from: start }
    : await reference.slice(request.term?.text, start, request.size);
  if ('unusable' in expected) return { kind: 'unusable', exchange: expected.unusable };
  const pages = { exchanges: expected.exchanges, base: expected.from, max: reference.max };
  const moved = () => movedPage(context, exchange, { term: request.term?.text ?? '', start, size: request.size }, pages);
  const judged = judgeSlice({ model, reference }, generated, request, exchange, expected);
  return byVersions(context, { generated, request }, exchange, judged, moved);
}

/**
 * Generated requests judged by what the interface states, so every violation is an error: a valid request
 * gets 200 with a JSON array of at most pageSize records, each a record of the listing, none twice; page
 * p of size s is results (p-1)s..ps-1 of the target's own answer to the same search read at the largest
 * size; a term no record can contain finds nothing (else the search parameter is ignored).
 */
export const explorePages: ScenarioCheck = {
  name: 'explore_pages',
  kind: 'scenario',
  group: 'exploration',
  background: true,
  grows: 'covering',
  description: 'generated searches and pages (any valid page, size and term) get the slices and records the interface states',
  evidence: 'a listing with at least 1 record, and generated requests answered without a 5xx or redirect',
  async run(context) {
    const state = await explorationOf(context);
    const missing = needListing(await context.listing(), 1);
    if (missing) return missing;
    return explore(
      context,
      requestArbitrary(state.model, context.parameters, state.wrong.length),
      (generated) => judgeGenerated(context, state, generated),
      {
        resync: state.resync,
        settle: state.settle,
        covering: state.covering,
        prefetch: (generated) => prefetchGenerated(state, generated),
      },
    );
  },
};
