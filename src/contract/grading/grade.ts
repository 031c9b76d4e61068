import { ALL_CHECKS } from '../checks/index.ts';
import type { CheckOutcome, ContractReport, ListingAnswers, Verdict } from '../types.ts';
import { CAUSE, failedInOrder } from './causes.ts';

/** What a run counted, besides its outcomes: the report's own fields, the requests sent, what each listing got. */
export interface GradeInput
  extends Pick<ContractReport, 'target' | 'strict' | 'outcomes' | 'coverage' | 'timing' | 'plan'>,
    Required<Pick<ContractReport, 'seed' | 'examples'>> {
  readonly stats: { readonly sent: number; readonly retried: number };
  /** What each listing's requests got as a whole (see ContractReport.unanswered). */
  readonly listings?: readonly ListingAnswers[];
}

/**
 * Turns outcomes into the run's verdict. A check fails on an error (on a warning too under strict). The run
 * is conformant only when no check failed and every requested check was evaluated: a check skipped for
 * want of evidence makes it inconclusive, one that does not apply (an opt-in check, an optional header
 * the target does not send) does not. Counts are of checks, everywhere.
 */
export function grade(input: GradeInput): ContractReport {
  const unanswered = (input.listings ?? []).filter((listing) => listing.requests > 0 && listing.listed === 0);
  const outcomes = underUnanswered(input.outcomes, unanswered).map((outcome): CheckOutcome => {
    if (outcome.status === 'skipped') return outcome;
    const errors = outcome.failures.some((f) => f.severity === 'error');
    const warnings = outcome.failures.some((f) => f.severity === 'warning');
    return { ...outcome, status: errors || (input.strict && warnings) ? 'failed' : warnings ? 'warned' : 'passed' };
  });
  const byCheck = new Map([...outcomesByCheck(outcomes)].map(([check, own]) => [check, checkStatus(own)]));
  const count = (status: CheckStatus['status'], part?: boolean) =>
    [...byCheck.values()].filter((s) => s.status === status && (part === undefined || s.part === part)).length;
  const unevaluated = outcomes.filter((o) => o.status === 'skipped' && o.skipCause === 'no-evidence');
  const inconclusive = new Set(unevaluated.map((o) => o.check)).size;
  const summary = {
    checks: byCheck.size,
    passed: count('passed', false),
    part: count('passed', true),
    failed: count('failed'),
    warned: count('warned'),
    skipped: count('skipped'),
    inconclusive,
    requests: input.stats.sent,
    retried: input.stats.retried,
  };
  const verdict: Verdict = summary.failed > 0 ? 'not conformant' : inconclusive > 0 ? 'inconclusive' : 'conformant';
  const reason = reasonOf(outcomes, unevaluated, unanswered);
  return {
    target: input.target,
    strict: input.strict,
    outcomes,
    summary,
    conformant: verdict === 'conformant',
    verdict,
    ...(reason ? { reason } : {}),
    seed: input.seed,
    examples: input.examples,
    ...(input.coverage ? { coverage: input.coverage } : {}),
    ...(input.timing ? { timing: input.timing } : {}),
    ...(input.plan ? { plan: input.plan } : {}),
    ...(unanswered.length > 0 ? { unanswered } : {}),
  };
}

/** Why a run failed or is inconclusive, in checks: what failed first, then what could not be evaluated. */
function reasonOf(
  outcomes: readonly CheckOutcome[],
  unevaluated: readonly CheckOutcome[],
  unanswered: readonly ListingAnswers[],
): string | undefined {
  const { causes, following } = failedInOrder(outcomes);
  const checks = new Set(unevaluated.map((o) => o.check)).size;
  const elsewhere = unevaluated.filter((o) => !unanswered.some((l) => l.operationId === o.operationId));
  const why = [
    ...unansweredLines(unanswered),
    ...elsewhere.slice(0, 3).map((o) => `${o.check} on ${o.operationId} (${o.skipReason ?? ''})`),
    ...(elsewhere.length > 3 ? ['…'] : []),
  ].join('; ');
  const notEvaluated = checks > 0 ? `${checks} requested check${checks === 1 ? '' : 's'} could not be evaluated: ${why}` : undefined;
  // A failing run names what failed first; what could not be evaluated comes after, if anything.
  const followed =
    following.length > 0
      ? `; ${following.length} more follow${following.length === 1 ? 's' : ''} from ${CAUSE} (${following.join(', ')})`
      : '';
  const failedAlone = causes.length > 0 ? causes : following;
  return failedAlone.length > 0
    ? `${failedAlone.length} check${failedAlone.length === 1 ? '' : 's'} failed (${failedAlone.join(', ')})${causes.length > 0 ? followed : ''}${notEvaluated ? `; and ${notEvaluated}` : ''}`
    : notEvaluated;
}

/** A check's status over its listings, as its console line shows it: the worst, and PART for a pass in part. */
export interface CheckStatus {
  readonly status: CheckOutcome['status'];
  /** Some listings skipped and others not, or a part of its claim not observable. */
  readonly part: boolean;
}

/**
 * The status of one check from its outcomes (one per listing): its worst; a pass on some listings only, or on
 * part of its claim, is a pass in part (PART), never a plain pass.
 *
 * @example
 * checkStatus([{ status: 'passed', ... }, { status: 'skipped', ... }]); // { status: 'passed', part: true }
 */
export function checkStatus(outcomes: readonly CheckOutcome[]): CheckStatus {
  const status = (['failed', 'warned', 'passed', 'skipped'] as const).find((s) => outcomes.some((o) => o.status === s))!;
  const skipped = outcomes.filter((o) => o.status === 'skipped').length;
  const part = status === 'passed' && ((skipped > 0 && skipped < outcomes.length) || outcomes.some((o) => o.notObserved));
  return { status, part };
}

/**
 * Each check's outcomes (one per listing), in the order the checks first appear.
 *
 * @example
 * for (const [check, outcomes] of outcomesByCheck(report.outcomes)) console.log(check, checkStatus(outcomes).status);
 */
export function outcomesByCheck(outcomes: readonly CheckOutcome[]): Map<string, CheckOutcome[]> {
  const grouped = new Map<string, CheckOutcome[]>();
  for (const outcome of outcomes) grouped.set(outcome.check, [...(grouped.get(outcome.check) ?? []), outcome]);
  return grouped;
}

/**
 * `every request to /alert got 500 text/plain`, or `no request to /alert got a listing (12x 500 text/plain, ...)`:
 * what a listing that never answered got instead.
 */
export function unansweredLine(listing: ListingAnswers): string {
  const got = /got (.*)$/.exec(listing.answers)?.[1] ?? listing.answers;
  if (!/^(every|the) request got /.test(listing.answers)) return `no request to ${listing.path} got a listing (${got})`;
  return `every request to ${listing.path} got ${got}${got.startsWith('200') ? ', never a JSON array' : ''}`;
}

/** The unanswered listings in as few words as they allow: those that got the same answer said together. */
function unansweredLines(unanswered: readonly ListingAnswers[]): string[] {
  const alike = new Map<string, string[]>();
  const lines: string[] = [];
  for (const listing of unanswered) {
    const line = unansweredLine(listing);
    const got = /^every request to \S+ got (.*)$/.exec(line)?.[1];
    if (got === undefined) lines.push(line);
    else alike.set(got, [...(alike.get(got) ?? []), listing.path]);
  }
  const paths = (list: readonly string[]) => new Intl.ListFormat('en', { type: 'conjunction' }).format(list);
  return [...[...alike].map(([got, list]) => `every request to ${paths(list)} got ${got}`), ...lines];
}

/**
 * On a listing that never answered, nothing passes unseen: what could not be evaluated there is skipped under the
 * one fact (its reason that fact), a scenario check that passed is skipped too (what it compares never came), and
 * a response check that passed says it saw no listing answer (PART). Findings stay what they are.
 */
function underUnanswered(outcomes: readonly CheckOutcome[], unanswered: readonly ListingAnswers[]): CheckOutcome[] {
  const lines = new Map(unanswered.map((listing) => [listing.operationId, unansweredLine(listing)]));
  return outcomes.map((outcome) => {
    const why = lines.get(outcome.operationId);
    if (why === undefined || outcome.failures.length > 0) return outcome;
    if (outcome.status === 'skipped') return outcome.skipCause === 'no-evidence' ? { ...outcome, skipReason: why } : outcome;
    if (ALL_CHECKS.find((check) => check.name === outcome.check)?.kind === 'scenario')
      return { ...outcome, status: 'skipped', skipReason: why, skipCause: 'no-evidence' };
    return { ...outcome, notObserved: [...(outcome.notObserved ?? []), `a listing (a 200 JSON array): ${why}`] };
  });
}

/** The report of a run that could not run (exit 2), so CI's report upload still has a file saying why. */
export function unrunReport(target: string, strict: boolean, reason: string): ContractReport {
  return {
    target,
    strict,
    outcomes: [],
    summary: { checks: 0, passed: 0, part: 0, failed: 0, warned: 0, skipped: 0, inconclusive: 0, requests: 0, retried: 0 },
    conformant: false,
    verdict: 'could not run',
    reason,
  };
}
