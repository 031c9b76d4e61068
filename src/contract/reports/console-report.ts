import { preview } from '../model/answers.ts';
import { toCurl } from './curl.ts';
import { consistencySection } from './consistency-section.ts';
import { timingSection } from './timing-section.ts';
import { redact, type Secrets } from '../../secrets/redact.ts';
import type { CheckOutcome, ContractReport, Exchange, RunPlan, Verdict } from '../types.ts';
import { checkStatus, outcomesByCheck, unansweredLine } from '../grading/grade.ts';
import { ALONE_IN_FLIGHT } from '../client/concurrency-limit.ts';

const MARK: Record<CheckOutcome['status'], string> = { passed: 'PASS', failed: 'FAIL', warned: 'WARN', skipped: 'SKIP' };
/** The verdict line's most characters: the per-check reasons are above it. */
export const VERDICT_LINE_CHARS = 200;
const VERDICT: Record<Verdict, string> = {
  conformant: 'conformant',
  'not conformant': 'NOT conformant',
  inconclusive: 'INCONCLUSIVE',
  'could not run': 'COULD NOT RUN',
};

/** Where the exchanges of a finding are in the HAR: `log.entries[12], log.entries[40] in the HAR`. */
export const harLine = (entries: readonly number[]) => `${entries.map((i) => `log.entries[${i}]`).join(', ')} in the HAR`;

/**
 * The flags that give a run the plan it had when trimmed to fit its time (` --examples 1 --covering 40`), or ''.
 *
 * @example
 * `--seed ${report.seed}${planFlags(report.plan)}`;
 */
export const planFlags = (plan: RunPlan | undefined) =>
  plan
    ? [
        plan.examples.used !== plan.examples.asked ? ` --examples ${plan.examples.used}` : '',
        plan.covering.used !== plan.covering.asked ? ` --covering ${plan.covering.used}` : '',
        plan.specialTerms.used !== plan.specialTerms.asked ? ` --special-terms ${plan.specialTerms.used}` : '',
      ].join('')
    : '';

/** What a trimmed plan judged after its checks (`covering set 40 -> 52, special terms 18 -> 23`). */
function extendedWords({ covering, specialTerms, extended }: RunPlan): string {
  const parts = [
    ['covering set', covering.used, extended?.covering ?? 0],
    ['special terms', specialTerms.used, extended?.specialTerms ?? 0],
  ] as const;
  return parts
    .filter(([, , more]) => more > 0)
    .map(([name, used, more]) => `${name} ${used - more} -> ${used}`)
    .join(', ');
}

/** The command that replays a generated failure: the same seed and plan, that check alone. */
export const replayCommand = (target: string, seed: number, check: string, plan?: RunPlan) =>
  `tempmon contract --target '${target}' --seed ${seed}${planFlags(plan)} --checks ${check}`;

/**
 * A check's line: its worst status over the operations, and, when some operations were skipped and
 * others not, how many were evaluated: a pass on some operations only, or on part of its claim (a part not
 * observable here), is PART, never PASS.
 */
function statusLine(check: string, outcomes: readonly CheckOutcome[]): string {
  const { status, part } = checkStatus(outcomes);
  const skipped = outcomes.filter((o) => o.status === 'skipped');
  const partly =
    skipped.length > 0 && skipped.length < outcomes.length
      ? ` (${outcomes.length - skipped.length} of ${outcomes.length} operations; ${skipped.length} SKIP: ${preview(skipped[0]!.skipReason ?? '', 100)})`
      : '';
  return `${part ? 'PART' : MARK[status]} ${check}${partly}: ${outcomes[0]!.description}`;
}

/**
 * Each listing that never answered, once: `every request to /alert got 500 text/plain: 212 requests`, and under
 * it the checks skipped there for want of a listing answer (wrapped). Those skipped so on every listing get no
 * block of their own: the set of them.
 */
function unansweredBlock(report: ContractReport): { lines: string[]; folded: Set<string> } {
  const lines: string[] = [];
  const skippedHere = (o: CheckOutcome) => o.status === 'skipped' && o.skipCause === 'no-evidence';
  const foldedOn = (operationId: string) =>
    report.outcomes
      .filter((o) => o.operationId === operationId && skippedHere(o))
      .map((o) => o.check)
      .join(', ');
  const listings = report.unanswered ?? [];
  for (const [i, listing] of listings.entries()) {
    lines.push(`${unansweredLine(listing)}: ${listing.requests} request${listing.requests === 1 ? '' : 's'}`);
    // Listings that skipped the same checks share one list, under the last of them.
    const names = foldedOn(listing.operationId);
    const next = listings[i + 1];
    if (next && foldedOn(next.operationId) === names) continue;
    const same = listings.slice(0, i + 1).filter((l) => foldedOn(l.operationId) === names);
    const where = new Intl.ListFormat('en', { type: 'conjunction' }).format(same.map((l) => l.operationId));
    if (names !== '') lines.push(...wrapped(`SKIP on ${where}, for want of a listing answer: ${names}`, '  '));
  }
  const unanswered = new Set(listings.map((l) => l.operationId));
  const folded = new Set(report.outcomes.map((o) => o.check));
  for (const o of report.outcomes) if (!unanswered.has(o.operationId) || !skippedHere(o)) folded.delete(o.check);
  return { lines, folded };
}

/** `text` in lines of at most 120 characters, each starting with `indent`, broken after commas. */
function wrapped(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 120 && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = `${indent}  `;
    }
    line += `${word} `;
  }
  return [...lines, line.trimEnd()];
}

/** `29 checks: 20 passed, 2 passed in part (PART), 1 failed, 6 skipped`: the summary, in checks as the lines above. */
function summaryLine({ checks, passed, part, warned, failed, skipped }: ContractReport['summary']): string {
  const parts = [
    `${passed} passed`,
    part > 0 ? `${part} passed in part (PART)` : '',
    warned > 0 ? `${warned} with warnings only (WARN)` : '',
    `${failed} failed`,
    `${skipped} skipped`,
  ];
  return `${checks} check${checks === 1 ? '' : 's'}: ${parts.filter(Boolean).join(', ')}`;
}

/**
 * The report for a terminal or a CI log: one block per check (operations inside), each failure with
 * what was expected, what came back and a curl command that reproduces it; then the summary line.
 *
 * @example
 * console.log(consoleReport(await runContract(options), { apiKey: options.apiKey, headerValues: [] }));
 */
export function consoleReport(report: ContractReport, secrets: Secrets): string {
  const lines = [`tempmon contract: ${report.target}${report.strict ? ' (strict: warnings fail)' : ''}`, ''];
  const byCheck = outcomesByCheck(report.outcomes);

  // The cause first: a check others' findings follow from leads the report.
  const causes = new Set(report.outcomes.flatMap((o) => o.failures.flatMap((f) => (f.followsFrom ? [f.followsFrom] : []))));
  const unanswered = unansweredBlock(report);
  lines.push(...unanswered.lines);
  const blocks = [...byCheck]
    .filter(([check]) => !unanswered.folded.has(check))
    .sort(([a], [b]) => Number(causes.has(b)) - Number(causes.has(a)));
  for (const [check, outcomes] of blocks) {
    lines.push(statusLine(check, outcomes));
    for (const outcome of outcomes) {
      if (outcome.status === 'skipped')
        lines.push(
          `  ${outcome.operationId}: skipped, ${outcome.skipReason ?? ''}${outcome.skipCause === 'no-evidence' && outcome.evidence && !/^(data changed|the run's)/.test(outcome.skipReason ?? '') ? ` (needs ${outcome.evidence})` : ''}`,
        );
      for (const unseen of outcome.notObserved ?? []) lines.push(`  ${outcome.operationId}: not observable here: ${unseen}`);
      for (const failure of outcome.failures) {
        const times = (failure.occurrences ?? 1) > 1 ? ` (${failure.occurrences} times)` : '';
        const follows = failure.followsFrom ? ` (follows from ${failure.followsFrom}: the same request gets other answers)` : '';
        lines.push(`  ${outcome.operationId} ${failure.severity.toUpperCase()}: ${failure.message}${times}${follows}`);
        if (failure.expected !== undefined) lines.push(`    expected: ${failure.expected}`);
        if (failure.actual !== undefined) lines.push(`    actual:   ${failure.actual}`);
        if (failure.exchange) lines.push(`    reproduce: ${toCurl(failure.exchange.request)}${loadNote(failure.exchange)}`);
        if (failure.harEntries) lines.push(`    exchanges: ${harLine(failure.harEntries)}`);
        if (failure.seed !== undefined)
          lines.push(`    replay:    ${replayCommand(report.target, failure.seed, failure.check, report.plan)}`);
      }
    }
  }
  const { requests, retried } = report.summary;
  const warnings = report.outcomes.reduce((n, o) => n + o.failures.filter((f) => f.severity === 'warning').length, 0);
  if (report.verdict !== 'could not run') {
    lines.push('', summaryLine(report.summary));
    const seed =
      report.seed === undefined
        ? ''
        : `; seed ${report.seed} (--seed ${report.seed}${planFlags(report.plan)} replays the generated requests)`;
    lines.push(
      `${warnings} warning${warnings === 1 ? '' : 's'}${warnings > 0 && !report.strict ? ' (assumptions; --strict makes them fail)' : ''}, ${requests} requests${retried > 0 ? ` (${retried} retried after 429)` : ''}${seed}`,
    );
    lines.push(...consistencySection(report.coverage ?? []));
    const covered = (report.coverage ?? []).filter((c) => c.pairs && !report.unanswered?.some((l) => l.operationId === c.operationId));
    if (covered.length > 0)
      lines.push(
        `pairs of parameter classes covered: ${covered.map((c) => `${c.operationId} ${c.pairs!.covered} of ${c.pairs!.total}`).join(', ')}`,
      );
    if (report.plan?.why) lines.push(`planned to fit --max-duration: ${report.plan.why}`);
    if (report.plan?.extended) lines.push(`judged in the time left: ${extendedWords(report.plan)}`);
    if (report.timing) lines.push(...timingSection(report.timing));
  }
  lines.push(...verdictLines(report));
  return redact(lines.join('\n'), secrets);
}

/**
 * The report's last lines: the verdict line, whole when it fits in {@link VERDICT_LINE_CHARS} characters, else
 * cut, with the whole reason on a `why:` line above it (not yet redacted). A run that could not run prints these
 * alone, once, on stdout.
 *
 * @example
 * verdictLines(unrunReport('(none)', false, 'no API key: set TEMPMON_API_KEY or pass --api-key'));
 * // ['COULD NOT RUN: no API key: set TEMPMON_API_KEY or pass --api-key']
 */
export const verdictLines = (report: ContractReport): string[] =>
  report.reason && fullVerdict(report).length > VERDICT_LINE_CHARS ? [`why: ${report.reason}`, verdictLine(report)] : [verdictLine(report)];

/** Where a request was sent with others in flight, how many: the reproduce line alone may not show what it did. */
export function loadNote(exchange: Exchange): string {
  const first = exchange.firstUnderLoad;
  if (first) return `  # sent alone; first with ${first.inFlight} in flight: ${first.error ?? `${first.response?.status}`}`;
  return (exchange.inFlight ?? 1) > ALONE_IN_FLIGHT ? `  # sent with ${exchange.inFlight} in flight` : '';
}

/**
 * The report's last line, its verdict: `conformant`, `NOT conformant: ...`, `COULD NOT RUN: ...` (not yet
 * redacted), at most {@link VERDICT_LINE_CHARS} characters: a longer reason is cut, whole above it.
 */
export const verdictLine = (report: ContractReport): string => {
  const [verdict, reason, read] = [VERDICT[report.verdict], report.reason ?? '', partlyRead(report)];
  const tail = read ? ` (${read})` : '';
  const line = fullVerdict(report);
  if (line.length <= VERDICT_LINE_CHARS) return line;
  const room = VERDICT_LINE_CHARS - verdict.length - tail.length - CUT.length - 2;
  if (room < 40) return `${line.slice(0, VERDICT_LINE_CHARS - 1)}…`;
  return `${verdict}: ${reason.slice(0, room).trimEnd()}${CUT}${tail}`;
};
const CUT = '… (whole reason above)';

/** The verdict, the whole reason, and how much of a long listing it rests on. */
function fullVerdict(report: ContractReport): string {
  const read = partlyRead(report);
  return `${VERDICT[report.verdict]}${report.reason ? `: ${report.reason}` : ''}${read ? ` (${read})` : ''}`;
}

/** For listings longer than --max-pages, how much the verdict rests on: `listAlerts: 5,000 of 1,000,037 records read, ...`. */
function partlyRead(report: ContractReport): string {
  const long = (report.coverage ?? []).filter((c) => !c.complete && c.read > 0);
  if (long.length === 0) return '';
  const n = (value: number) => value.toLocaleString('en-US');
  const parts = long.map(
    (c) =>
      `${c.operationId}: ${n(c.read)}${c.total !== undefined ? ` of ${n(c.total)}` : ''} records read in order, ${c.sampledPages} page${c.sampledPages === 1 ? '' : 's'} beyond${c.total !== undefined ? ' up to the end' : ''}`,
  );
  return parts.join('; ');
}
