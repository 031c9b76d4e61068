// The one rule: an answer passes when a version of the listing admissible for its time explains it.
import type { ListingHistory, Span } from './history.ts';
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

/** What an answer showed of a claim: its records' identities, its count. */
export interface Shown {
  readonly ids?: readonly string[];
  readonly count?: number;
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
  /** What the claim needs of a version lies past what the run read (a listing longer than --max-pages), or nothing was read. */
  | { readonly kind: 'unknown'; readonly why: string };

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
 * version there; records edited during the run are left out of a search's comparison (found or not, by when).
 */
export function fits(lineage: Lineage, claim: Claim, top: number, tails: { low: number; high: number }, shown: Shown): boolean | undefined {
  const longest = expectedOf(lineage, claim, { top, tail: tails.low });
  if (!longest) return undefined;
  if (claim.count) {
    const fewest = lineage.count({ top, tail: tails.high }, claim.term);
    if (shown.count === undefined || fewest === undefined || shown.count < fewest || shown.count > longest.count!) return false;
  }
  if (!claim.page) return true;
  const keep = (ids: readonly string[]) => (claim.term === '' ? ids : ids.filter((id) => !lineage.edited(id)));
  const [want, got] = [keep(longest.ids!), keep(shown.ids ?? [])];
  if (got.length > want.length || got.some((id, i) => want[i] !== id)) return false;
  if (got.length === want.length) return true;
  // Shorter: the version ends after its last record, so its tail lies above the first record left out.
  const after = lineage.position(want[got.length]!)!;
  return after + 1 <= tails.high;
}

/**
 * The rule: `shown`, answered within `span`, is explained when a version admissible for that time (see
 * ListingHistory.admissible, widened by the staleness measured for its kind, at most `maxStaleMs`) gives it.
 *
 * @example
 * const verdict = explain(history, { term: '', page: { offset: 9, size: 1 } }, { ids: ['ALR-1'] }, span, 'page', 10_000);
 * if (verdict.kind === 'unexplained') report(verdict.closest, verdict.expected);
 */
export function explain(
  history: ListingHistory,
  claim: Claim,
  shown: Shown,
  span: Span,
  kind: 'page' | 'search',
  maxStaleMs: number,
): Explanation {
  const lineage = history.lineage();
  if (!lineage) return { kind: 'unknown', why: 'the listing was not read' };
  const widen = Math.min(history.staleness(kind), maxStaleMs);
  const range = history.admissible(span, widen)!;
  let unknown = false;
  for (let top = range.high; top >= range.low; top -= 1) {
    const fit = fits(lineage, claim, top, history.tails(top), shown);
    if (fit) return { kind: 'explained', version: { top, tail: history.tails(top).low }, staleMs: history.agedBy(top, span.sent) };
    unknown ||= fit === undefined;
  }
  const older = olderFit(history, lineage, claim, shown, range.low, span, maxStaleMs);
  if (older) return older;
  if (newerFit(lineage, claim, shown, range.high)) return { kind: 'newer' };
  if (unknown) return { kind: 'unknown', why: 'it needs records past those read (--max-pages)' };
  const closest = { top: range.high, tail: history.tails(range.high).low };
  return {
    kind: 'unexplained',
    closest,
    expected: expectedOf(lineage, claim, closest) ?? {},
    admissible: range.high - range.low + 1,
  };
}

/**
 * The tops of the admissible versions (as {@link explain} admits them) that give `shown`: what answers compared
 * with each other must share one of.
 */
export function explainingTops(
  history: ListingHistory,
  claim: Claim,
  shown: Shown,
  span: Span,
  kind: 'page' | 'search',
  maxStaleMs: number,
): number[] {
  const lineage = history.lineage();
  const range = lineage && history.admissible(span, Math.min(history.staleness(kind), maxStaleMs));
  if (!lineage || !range) return [];
  const tops: number[] = [];
  for (let top = range.high; top >= range.low; top -= 1) if (fits(lineage, claim, top, history.tails(top), shown)) tops.push(top);
  return tops;
}

/** The newest version older than the admissible ones that explains the answer within `maxStaleMs`. */
function olderFit(
  history: ListingHistory,
  lineage: Lineage,
  claim: Claim,
  shown: Shown,
  below: number,
  span: Span,
  maxStaleMs: number,
): Explanation | undefined {
  // Only versions the run saw, or between two it saw: one older than every read is no version of the listing.
  for (let top = below - 1; top >= history.seen()!.oldest; top -= 1) {
    const needMs = history.agedBy(top, span.sent);
    if (needMs > maxStaleMs) return undefined;
    if (fits(lineage, claim, top, history.tails(top), shown))
      return { kind: 'stale', version: { top, tail: history.tails(top).low }, needMs };
  }
  return undefined;
}

/** Whether the answer's records stand where a version newer than any seen would put them (records arrived since). */
function newerFit(lineage: Lineage, claim: Claim, shown: Shown, newest: number): boolean {
  if (!claim.page || claim.term !== '' || !shown.ids || shown.ids.length === 0) return false;
  const top = lineage.locate(shown.ids, claim.page.offset);
  return top !== undefined && top > newest;
}
