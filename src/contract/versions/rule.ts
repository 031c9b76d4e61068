// The one rule: an answer passes when a version of the listing admissible for its time explains it.
import { type ListingHistory, type Span, versionAt } from './history.ts';
import type { Lineage, Version } from './lineage.ts';

/**
 * What an answer must be for a version of the listing: the records `offset`.. that `term` finds (all of them for an
 * empty term), `size` at most, and, with `count`, how many it finds in all.
 */
export interface Claim {
  readonly term: string;
  readonly page?: { readonly offset: number; readonly size: number };
  readonly count?: boolean;
}

/** What an answer showed of a claim: its records' identities, its count (or the bounds it implies, as Link's pages do). */
export interface Shown {
  readonly ids?: readonly string[];
  readonly count?: number;
  readonly countWithin?: { readonly low: number; readonly high: number };
}

/** What the rule made of an answer. */
export type Explanation =
  /** A version admissible for its time explains it; `staleMs`: how long a newer version had been seen when it was sent. */
  | { readonly kind: 'explained'; readonly version: Version; readonly staleMs: number }
  /** Only a version older than the staleness measured allows explains it: it needs `needMs`. */
  | { readonly kind: 'stale'; readonly version: Version; readonly needMs: number }
  /** It shows a version newer than any the run has seen: the head must be read again to judge it. */
  | { readonly kind: 'newer' }
  /** No version explains it: the closest admissible one, what that one gives, and how many were admissible. */
  | { readonly kind: 'unexplained'; readonly closest: Version; readonly expected: Shown; readonly admissible: number }
  /**
   * What the claim needs of a version lies past what the run read (a listing longer than --max-pages), or nothing was
   * read; `newer`: it shows a version newer than any read of the head while reads of the head went back.
   */
  | { readonly kind: 'unknown'; readonly why: string; readonly newer?: true };

const UNPLACED =
  'reads of its head showed only records the run could not place among those it knew (the listing replaced whole, or more arrived than a page holds)';

/** What `version` gives for `claim`, at its most records (its lowest tail), or undefined past what was read. */
export function expectedOf(lineage: Lineage, claim: Claim, version: Version): Shown | undefined {
  const ids = claim.page
    ? claim.term === ''
      ? lineage.slice(version, claim.page.offset, claim.page.size)
      : lineage.matches(version, claim.term, claim.page.offset, claim.page.size)
    : undefined;
  const count = claim.count ? lineage.count(version, claim.term) : undefined;
  if ((claim.page && !ids) || (claim.count && count === undefined)) return undefined;
  return { ...(ids ? { ids } : {}), ...(count !== undefined ? { count } : {}) };
}

/**
 * Whether a version of `top`, with a tail anywhere in `tails`, gives `shown`: an answer ending early ends the
 * version there; records edited during the run, and those that left from the middle of the listing (see
 * Lineage.edited), are left out of the comparison and widen its count (there or not, found or not, by when).
 */
export function fits(lineage: Lineage, claim: Claim, top: number, tails: { low: number; high: number }, shown: Shown): boolean | undefined {
  const longest = expectedOf(lineage, claim, { top, tail: tails.low });
  if (!longest) return undefined;
  // A record edited during the run may have been found by a search or not, by when, and one that left from the
  // middle was there or not: each one widens what it gives, as does one the term finds only in fields seen to
  // change in others (an edit no answer showed).
  const edited = lineage.editedIn({ top, tail: tails.low }, claim.term);
  if (claim.count) {
    const fewest = lineage.count({ top, tail: tails.high }, claim.term);
    // A term found in fields seen to change: records no answer showed may have gained it.
    const most = lineage.reachesEdits(claim.term) ? top - tails.low : longest.count! + edited;
    const within = shown.count !== undefined ? { low: shown.count, high: shown.count } : shown.countWithin;
    if (!within || fewest === undefined || within.high < fewest - edited || within.low > most) return false;
  }
  if (!claim.page) return true;
  if (edited > 0) return fitsEdited(lineage, { term: claim.term, page: claim.page }, { top, tail: tails.low }, edited, shown);
  const keep = (ids: readonly string[]) => ids.filter((id) => !lineage.edited(id, claim.term));
  const [want, got] = [keep(longest.ids!), keep(shown.ids ?? [])];
  if (got.length > want.length || got.some((id, i) => want[i] !== id)) return false;
  if (got.length === want.length) return true;
  // Shorter: the version ends after its last record, so its tail lies above the first record left out.
  const after = lineage.position(want[got.length]!)!;
  return after + 1 <= tails.high;
}

/**
 * A search's page over a version holding `edited` records edited during the run: each may have been found or not,
 * by when, so the page may start up to that many places earlier or later. Its other records must stand together, in
 * order, among what the term finds around its place; an empty page, past where the fewest found could end.
 */
function fitsEdited(
  lineage: Lineage,
  claim: { readonly term: string; readonly page: { readonly offset: number; readonly size: number } },
  version: Version,
  edited: number,
  shown: Shown,
): boolean | undefined {
  const { offset, size } = claim.page;
  const got = (shown.ids ?? []).filter((id) => !lineage.edited(id, claim.term));
  if ((shown.ids ?? []).length === 0) {
    const found = lineage.count(version, claim.term);
    return found === undefined ? undefined : offset >= found - edited;
  }
  const around = lineage.matches(version, claim.term, Math.max(0, offset - edited), size + 2 * edited);
  if (!around) return undefined;
  const want = around.filter((id) => !lineage.edited(id, claim.term));
  if (got.length === 0) return true;
  const at = want.indexOf(got[0]!);
  return at >= 0 && got.every((id, i) => want[at + i] === id);
}

/** Why the rule cannot tell an answer whose claim lies past the records the run read. */
export const PAST_READ = 'it needs records past those read (--max-pages)';

/**
 * How far the listing's head may have moved between two answers: the fewest and the most records by which a version
 * admissible for `later` is newer than one admissible for `earlier` (negative when older), each widened by the
 * staleness measured for its kind, at most `maxStaleMs`. Past the records read, a page of one answer is a page of
 * the other moved by as many places as arrived between them. Undefined when the listing was not read.
 *
 * @example
 * movedBetween(history, { span: generated.span, kind: 'page' }, { span: reference.span, kind: 'page' }, 10_000); // { low: 0, high: 3 }
 */
export function movedBetween(
  history: ListingHistory,
  earlier: { readonly span: Span; readonly kind: Answer['kind'] },
  later: { readonly span: Span; readonly kind: Answer['kind'] },
  maxStaleMs: number,
): { readonly low: number; readonly high: number } | undefined {
  const [a, b] = [admissibleRange(history, { ...earlier, maxStaleMs }), admissibleRange(history, { ...later, maxStaleMs })];
  return a && b ? { low: b.low - a.high, high: b.high - a.low } : undefined;
}

/** What an answer is judged with: its claim, what it showed, when it was made, its kind, and --max-staleness. */
export interface Answer {
  readonly claim: Claim;
  readonly shown: Shown;
  readonly span: Span;
  readonly kind: 'page' | 'search';
  readonly maxStaleMs: number;
}

/**
 * The tops of the versions admissible for an answer made within `span` (see ListingHistory.admissible), widened by the
 * staleness measured for its kind, at most `maxStaleMs`; replicas seen behind count only when staleness is allowed.
 */
function admissibleRange(history: ListingHistory, { span, kind, maxStaleMs }: Pick<Answer, 'span' | 'kind' | 'maxStaleMs'>) {
  const behind = maxStaleMs > 0 ? history.behindVersions() : 0;
  return history.admissible(span, Math.min(history.staleness(kind), maxStaleMs), behind);
}

/**
 * The admissible versions' tops, newest first, each with whether it gives the answer (undefined: past what was
 * read); undefined when the listing was not read.
 */
function admissibleFits(history: ListingHistory, answer: Answer) {
  const lineage = history.lineage();
  if (!lineage) return undefined;
  const range = admissibleRange(history, answer)!;
  const tops = Array.from({ length: Math.max(0, range.high - range.low + 1) }, (_, i) => range.high - i);
  return { lineage, range, fits: tops.map((top) => ({ top, fit: fits(lineage, answer.claim, top, history.tails(top), answer.shown) })) };
}

/**
 * The rule: an answer is explained when a version admissible for its time (see ListingHistory.admissible, widened
 * by the staleness measured for its kind, at most --max-staleness) gives it.
 *
 * @example
 * const verdict = explain(history, { claim: { term: '', page: { offset: 9, size: 1 } }, shown: { ids: ['ALR-1'] }, span, kind: 'page', maxStaleMs: 10_000 });
 * if (verdict.kind === 'unexplained') report(verdict.closest, verdict.expected);
 */
export function explain(history: ListingHistory, answer: Answer): Explanation {
  const admissible = admissibleFits(history, answer);
  if (!admissible) return { kind: 'unknown', why: 'the listing was not read' };
  const broken = history.brokenSince();
  if (broken !== undefined && answer.span.answered >= broken)
    return { kind: 'unknown', why: 'the listing changed otherwise than at its head and tail (records replaced or removed in the middle)' };
  const unplaced = history.unplacedSince();
  if (unplaced !== undefined && answer.span.answered >= unplaced) return { kind: 'unknown', why: UNPLACED };
  const { lineage, range } = admissible;
  const found = admissible.fits.find((f) => f.fit);
  if (found)
    return {
      kind: 'explained',
      version: versionAt(history, found.top),
      staleMs: history.agedBy(found.top, answer.span.sent),
    };
  // Made while the head could not be placed: the versions of that time were never all read.
  if (history.unplacedDuring(answer.span)) return { kind: 'unknown', why: UNPLACED };
  const older = olderFit(history, lineage, answer, range.low);
  if (older) return older;
  if (newerFit(lineage, answer.claim, answer.shown, range.high)) return { kind: 'newer' };
  if (admissible.fits.some((f) => f.fit === undefined)) return { kind: 'unknown', why: PAST_READ };
  // None admissible (reads of the head went back in time, as replicas apart do): the newest the run had read.
  const top = Math.max(range.high, range.low);
  const closest = versionAt(history, top);
  return {
    kind: 'unexplained',
    closest,
    expected: expectedOf(lineage, answer.claim, closest) ?? {},
    admissible: range.high - range.low + 1,
  };
}

/**
 * The tops of the versions admissible for an answer's time that give it, newest first (empty when none does);
 * undefined when the listing was not read. Answers compared with each other are one version's when these meet.
 *
 * @example
 * givingTops(history, answer); // [204]: only the listing of 204 records gives it
 */
export function givingTops(history: ListingHistory, answer: Answer): readonly number[] | undefined {
  return admissibleFits(history, answer)?.fits.flatMap((f) => (f.fit ? [f.top] : []));
}

/**
 * An older version the run saw that gives an answer no admissible version explains, however long before it was
 * sent the run had left it behind: what a finding names beside the closest (found when the finding is worded, not
 * at each judging).
 *
 * @example
 * const older = olderGiving(history, answer); // { version: { top: 10, tail: 0 }, needMs: 149 }, or undefined
 */
export function olderGiving(history: ListingHistory, answer: Answer): { readonly version: Version; readonly needMs: number } | undefined {
  const admissible = admissibleFits(history, answer);
  if (!admissible) return undefined;
  const beyond = olderFit(history, admissible.lineage, { ...answer, maxStaleMs: Number.POSITIVE_INFINITY }, admissible.range.low);
  return beyond?.kind === 'stale' ? { version: beyond.version, needMs: beyond.needMs } : undefined;
}

/** The newest version older than the admissible ones that explains the answer within `maxStaleMs`. */
function olderFit(history: ListingHistory, lineage: Lineage, answer: Answer, below: number): Explanation | undefined {
  // Versions the run saw, or between two it saw; before the first read only as far back as records arrived during
  // the run (a listing that moves did before it too): on a listing that stood still, an older one is no version.
  const { oldest, newest } = history.seen()!;
  for (let top = below - 1; top >= Math.max(0, oldest - (newest - oldest)); top -= 1) {
    const needMs = history.agedBy(top, answer.span.sent);
    if (needMs > answer.maxStaleMs) return undefined;
    if (fits(lineage, answer.claim, top, history.tails(top), answer.shown))
      return { kind: 'stale', version: versionAt(history, top), needMs };
  }
  return undefined;
}

/** Whether the answer's records stand where a version newer than any seen would put them (records arrived since). */
function newerFit(lineage: Lineage, claim: Claim, shown: Shown, newest: number): boolean {
  if (!claim.page || claim.term !== '' || !shown.ids || shown.ids.length === 0) return false;
  // Records the lineage lacks may lead the answer: they arrived since; a full first page of them all is ahead.
  const known = shown.ids.findIndex((id) => lineage.position(id) !== undefined);
  if (known < 0) return claim.page.offset === 0 && shown.ids.length === claim.page.size;
  const top = lineage.locate(shown.ids.slice(known), claim.page.offset + known);
  return top !== undefined && top > newest;
}
