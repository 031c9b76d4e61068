// An answer judged by the versions rule the way a check reports it: a pass, a finding naming the versions, or
// what the run could not tell.
import type { Finding, Exchange } from '../types.ts';
import type { Judged, ListingVersions } from '../versions/listing-versions.ts';
import type { Claim, Shown } from '../versions/rule.ts';

/** What the rule made of an answer, for a check. */
export type RuleVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'finding'; readonly finding: Finding }
  /** The rule cannot tell: why, and the finding as the older mechanisms judge it (no version named). */
  | { readonly kind: 'unknown'; readonly why: string; readonly fallback: Finding };

/**
 * Judges `exchange` by the rule against `claims`, any one of which it may meet (an ambiguous form read as either
 * value it spells): a pass when an admissible version explains it for one of them; else the finding `make` words
 * from the rule's why and the expected answer of the closest version, judged again at the end of the run (see
 * Failure.rejudge); unknown when no claim could be judged.
 *
 * @example
 * const verdict = await judgeAnswer(context.versions, exchange, [{ term: '', page: { offset: 9, size: 1 } }], (why, expected) => ({
 *   severity: 'error', message: `page=010 was misread: ${why}`, expected, exchange,
 * }));
 */
export async function judgeAnswer(
  versions: ListingVersions,
  exchange: Exchange,
  claims: readonly Claim[],
  make: (why: string, expected?: string) => Finding,
  again?: () => Promise<Exchange>,
  /** What the answer showed, when not read from its records and count header (see ListingVersions.judge). */
  shown?: Shown,
): Promise<RuleVerdict> {
  const judged = await judgeAll(versions, exchange, claims, again, shown);
  if (judged.kind === 'explained') return { kind: 'pass' };
  if (judged.kind === 'unknown')
    return {
      kind: 'unknown',
      why: judged.why,
      fallback: { ...make(`the versions of the listing could not tell (${judged.why})`), unplaced: judged.why },
    };
  const rejudge = async () => verdictOf(await judgeAll(versions, exchange, claims, undefined, shown));
  return { kind: 'finding', finding: { ...make(judged.why, judged.expected), rejudge } };
}

/** Whether a finding still stands when judged again: it does, it does not, or the rule cannot tell now (and why). */
const verdictOf = (judged: Judged): boolean | { unknown: string } =>
  judged.kind === 'unknown' ? { unknown: judged.why } : judged.kind === 'unexplained';

/** The first claim a version explains, else the first unexplained one's words, else unknown. */
async function judgeAll(
  versions: ListingVersions,
  exchange: Exchange,
  claims: readonly Claim[],
  again?: () => Promise<Exchange>,
  shown?: Shown,
): Promise<Judged> {
  let first: Judged | undefined;
  for (const claim of claims) {
    const judged = await versions.judge(exchange, claim, again, shown);
    if (judged.kind === 'explained') return judged;
    if (!first || (first.kind === 'unknown' && judged.kind === 'unexplained')) first = judged;
  }
  return first ?? { kind: 'unknown', why: 'nothing was claimed' };
}
