// The history of one listing's versions as the run saw them: which version each read of its head showed, and when;
// which versions an answer may come from (the rule's admissible versions), and how stale the listing was seen to be.
import type { ConsistencyFigures } from '../types.ts';
import { createLineage, type Lineage, type Matcher, type Version } from './lineage.ts';

type Json = Record<string, unknown>;

/** When an answer was produced: from its request's sending to its answer's reading, on the run's clock (ms). */
export interface Span {
  readonly sent: number;
  readonly answered: number;
}

/**
 * The span from the first sent to the last answered of `spans`; undefined when there are none.
 *
 * @example
 * spanning([{ sent: 10, answered: 40 }, { sent: 20, answered: 90 }]); // { sent: 10, answered: 90 }
 */
export function spanning(spans: readonly Span[]): Span | undefined {
  if (spans.length === 0) return undefined;
  return { sent: Math.min(...spans.map((s) => s.sent)), answered: Math.max(...spans.map((s) => s.answered)) };
}

/** One read that showed a version: its top, its tail when a count was sent with it, and when. */
export interface Sighting extends Span {
  readonly top: number;
  readonly tail?: number;
  readonly connection?: number;
  /** The listing read whole: its count came from one page while records may have arrived during the read. */
  readonly whole?: boolean;
}

/** What else a read of the head showed: the count it sent, its connection, whether its page was full. */
export interface HeadRead {
  readonly count?: number;
  readonly connection?: number;
  readonly full?: boolean;
  /**
   * It reads the head only by the spec's assumptions (an empty search, a default size): when it is no window of the
   * lineage it says nothing against it.
   */
  readonly loose?: boolean;
}

/** The kinds of request whose staleness is measured apart: a search may come from an index behind the records. */
export type StalenessKind = 'page' | 'search';

/** The history of one listing: its lineage, the reads of its head, and the staleness they show. */
export interface ListingHistory {
  lineage(): Lineage | undefined;
  /**
   * The listing read whole (or its prefix): the lineage starts from it; `total` its count when known; `seams` the
   * records that began its pages after the first (where a read across versions may have skipped records).
   */
  base(records: readonly Json[], complete: boolean, span: Span, total?: number, seams?: ReadonlySet<string>): void;
  /**
   * A read of the head (page 1, no search), with the count it sent, its connection, and whether it was a full page:
   * a sighting, false when no version explains it, `ahead` when it shows only records that arrived since the
   * newest version known (a full page of them: where they meet the records known lies further down).
   */
  sighting(records: readonly Json[], span: Span, read?: HeadRead): boolean | 'ahead';
  /**
   * The tops of the versions an answer made within `span` may come from, allowing `widenMs` of staleness: from
   * the newest version some read answered by `sent - widenMs` showed, to the oldest some read sent after
   * `answered + widenMs` showed (or the newest known).
   */
  admissible(span: Span, widenMs: number, behind?: number): { readonly low: number; readonly high: number } | undefined;
  /**
   * Since when the lineage cannot tell what an answer should be: a read of the head showed no window of it (records
   * replaced, removed in the middle), which may have begun as soon as the last read before it that fitted was sent
   * (undefined while every read fit it).
   */
  brokenSince(): number | undefined;
  /**
   * Since when a full read of the head showed only records the lineage lacks (from the last read before it that
   * fitted), until a later read placed the head again: meanwhile what an answer should be is not known (the listing
   * replaced whole, or more arrived than a page holds).
   */
  unplacedSince(): number | undefined;
  /**
   * Whether an answer made within `span` was made while reads of the head could not be placed (see unplacedSince),
   * however a later read placed the head again: the records that arrived meanwhile, and so the versions of that
   * time, were never all read.
   */
  unplacedDuring(span: Span): boolean;
  /** The most versions a read of the head was behind one already seen answered before it was sent (replicas apart). */
  behindVersions(): number;
  /** The tails a version of `top` may have: known from reads that sent a count, else between what they allow. */
  tails(top: number): { readonly low: number; readonly high: number };
  /**
   * The tail every read of the head that sent a count showed, when they all showed one and no record left from the middle:
   * records only arrive at the head, and a count names one version (its top, tail + count). Undefined otherwise.
   */
  fixedTail(): number | undefined;
  /** The oldest and the newest version seen (tops): versions outside never were, as far as the run saw. */
  seen(): { readonly oldest: number; readonly newest: number } | undefined;
  /** How long before `at` a version newer than `top` was first seen answered (0 when none was yet). */
  agedBy(top: number, at: number): number;
  /** The staleness measured so far for a kind of request (ms). */
  staleness(kind: StalenessKind): number;
  /** Set once a search answered as an older version was asked again until --max-staleness and never caught up. */
  neverCaughtUp: boolean;
  /** Notes a search answer seen behind by `ms` and later seen to catch up: the index's staleness. */
  noteSearchLag(ms: number): void;
  /** The longest a search index was seen behind its records (noteSearchLag), 0 when none was. */
  indexLag(): number;
  figures(): ConsistencyFigures;
  readonly sightings: readonly Sighting[];
}

/**
 * The version of `top`, with the lowest tail the run allows it: the one a verdict or a finding names.
 * @example
 * versions.describe(versionAt(history, 304)); // "the listing of 304 records whose newest is …"
 */
export const versionAt = (history: Pick<ListingHistory, 'tails'>, top: number): Version => ({ top, tail: history.tails(top).low });

/**
 * An empty history; `base` starts it.
 *
 * @example
 * const history = createHistory(containsTerm);
 * history.base(listing.records, listing.complete, span);
 * history.sighting(recordsOf(page1)!, page1.span!);
 */
export function createHistory(matches: Matcher): ListingHistory {
  let lineage: Lineage | undefined;
  let baseTop = 0;
  const sightings: Sighting[] = [];
  let searchLag = 0;
  // Measured as sightings come (in the order answered): how far and how long a read was behind what was seen before it.
  const measured = { behind: 0, stale: 0 };
  let broken: number | undefined;
  const unplaced = unplacedStretches();
  // What a read of the head that no version explains shows may have begun since the last read that fitted was sent.
  const lastFit = (before: number) =>
    Math.max(Number.NEGATIVE_INFINITY, ...sightings.filter((s) => s.answered <= before).map((s) => s.sent));
  const take = (records: readonly Json[], span: Span, read: HeadRead): boolean | 'ahead' => {
    const sighting = sightingIn(lineage!, records, span, read);
    // Records that all arrived since the newest version known: placed once the pages below them are read too.
    if (sighting === 'ahead') {
      unplaced.open(lastFit(span.sent), span.sent);
      return 'ahead';
    }
    if (sighting === undefined) {
      if (!read.loose) broken = Math.min(broken ?? span.sent, lastFit(span.sent));
      return false;
    }
    measure(measured, sightings, sighting);
    sightings.push(sighting);
    unplaced.placed(span.sent);
    return true;
  };
  // Reads of the head that came before the listing was read whole: taken in, in the order answered, once it is.
  const early = heldUntilBase(take);
  const history: ListingHistory = {
    sightings,
    neverCaughtUp: false,
    lineage: () => lineage,
    base(records, complete, span, total, seams) {
      if (lineage) return;
      const inserted = (at: number, count: number) => {
        shift(sightings, at, count);
        if (baseTop > at) baseTop += count;
      };
      lineage = createLineage(records, complete, matches, { ...(seams ? { seams } : {}), inserted });
      baseTop = lineage.ids.length;
      // Read to its end, the oldest record read is the tail; the count one page sent may be another version's (a
      // replica behind, records arrived during the read), which would put the tail a record off for the whole run.
      const tail = complete ? 0 : total !== undefined ? baseTop - total : undefined;
      sightings.push({ ...span, top: baseTop, whole: true, ...(tail !== undefined ? { tail } : {}) });
      early.release();
    },
    sighting: (records, span, read = {}) => early.sighting(records, span, read),
    admissible: (span, widenMs, behind = 0) => (lineage ? admissibleIn(sightings, history.seen()!, span, widenMs, behind) : undefined),
    behindVersions: () => measured.behind,
    brokenSince: () => broken,
    unplacedSince: () => unplaced.since(),
    unplacedDuring: (span) => unplaced.during(span),
    fixedTail: () => fixedTailOf(sightings, lineage),
    seen: () => (lineage ? { oldest: Math.min(baseTop, ...sightings.map((s) => s.top)), newest: lineage.ids.length } : undefined),
    tails: (top) => tailsIn(sightings, lineage?.complete === true, baseTop, top, lineage?.gone() ?? 0),
    agedBy: (top, at) => agedIn(sightings, top, at),
    staleness: (kind) => (kind === 'search' ? Math.max(searchLag, measured.stale) : measured.stale),
    indexLag: () => searchLag,
    noteSearchLag(ms) {
      searchLag = Math.max(searchLag, ms);
    },
    figures: () =>
      figuresOf(sightings, lineage, baseTop, { behind: measured.behind, page: measured.stale, search: history.staleness('search') }),
  };
  return history;
}

/** The stretches in which reads of the head could not be placed (see ListingHistory.unplacedSince, unplacedDuring). */
function unplacedStretches() {
  let open: { readonly since: number; readonly read: number } | undefined;
  /** Those closed: from `since` to the read that placed the head again. */
  const closed: { readonly since: number; readonly until: number }[] = [];
  return {
    /** A read sent at `read` could not be placed; the change may have come since the last read that fitted was sent. */
    open(since: number, read: number) {
      open ??= { since, read };
    },
    /** A read sent at `sent` was placed: the stretch open before it ends there. */
    placed(sent: number) {
      if (open === undefined || sent < open.read) return;
      closed.push({ since: open.since, until: sent });
      open = undefined;
    },
    since: () => open?.since,
    during: (span: Span) =>
      (open !== undefined && span.answered >= open.since) || closed.some((gap) => span.answered >= gap.since && span.sent <= gap.until),
  };
}

/** See ListingHistory.fixedTail. */
function fixedTailOf(sightings: readonly Sighting[], lineage: Lineage | undefined): number | undefined {
  // Past the listing read whole, whose count one page sent while records arrived during the read (see base).
  const seen = new Set(sightings.flatMap((s) => (s.tail === undefined || s.whole ? [] : [s.tail])));
  return seen.size === 1 && lineage?.gone() === 0 ? [...seen][0] : undefined;
}

/**
 * Reads of the head handed to `take`, those that come before the listing was read whole held until it is (`release`,
 * then taken in the order answered): the lineage starts from the listing read whole.
 */
function heldUntilBase(take: (records: readonly Json[], span: Span, read: HeadRead) => boolean | 'ahead') {
  let early: { records: readonly Json[]; span: Span; read: HeadRead }[] | undefined = [];
  return {
    /** Takes in a read of the head, or holds it (true: held, it says nothing against the lineage yet). */
    sighting(records: readonly Json[], span: Span, read: HeadRead): boolean | 'ahead' {
      if (early) {
        early.push({ records, span, read });
        return true;
      }
      return take(records, span, read);
    },
    /** Takes in the reads held, in the order answered, and every read after as it comes: the listing was read whole. */
    release(): void {
      const before = early!.sort((a, b) => a.span.answered - b.span.answered);
      early = undefined;
      for (const read of before) take(read.records, read.span, read.read);
    },
  };
}

/**
 * The sightings after `count` records were put in at `at`: records a torn read skipped were always there, so every
 * version holding their neighbours holds them too. A read of the head that sent a count keeps it (the target's
 * count was right where the lineage lacked records); the first, the torn read itself, counted without them.
 */
function shift(sightings: Sighting[], at: number, count: number): void {
  for (const [i, s] of sightings.entries()) {
    const top = s.top > at ? s.top + count : s.top;
    if (s.tail === undefined) sightings[i] = { ...s, top };
    else sightings[i] = { ...s, top, tail: i === 0 ? (s.tail >= at ? s.tail + count : s.tail) : top - (s.top - s.tail) };
  }
}

/** See ListingHistory.admissible: `seen` bounds what is admissible to the versions the run saw. */
function admissibleIn(
  sightings: readonly Sighting[],
  seen: { readonly oldest: number; readonly newest: number },
  span: Span,
  widenMs: number,
  behind: number,
): { readonly low: number; readonly high: number } {
  let [low, current] = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  let high = Number.POSITIVE_INFINITY;
  for (const s of sightings) {
    // A read answered exactly `widenMs` before is as old as the staleness allows: its version is not yet left behind.
    if (s.answered < span.sent - widenMs) low = Math.max(low, s.top);
    if (s.answered < span.sent) current = Math.max(current, s.top);
    if (s.sent > span.answered + widenMs) high = Math.min(high, s.top);
  }
  // Replicas seen a few versions apart: an answer may come from one that many versions behind the current one, and
  // a read after it from one that many behind the one that answered.
  low = Math.min(low, current - behind);
  high += behind;
  return { low: Math.max(seen.oldest, Math.min(low, seen.newest)), high: Math.min(seen.newest, Math.max(high, seen.oldest)) };
}

/** See ListingHistory.agedBy. */
function agedIn(sightings: readonly Sighting[], top: number, at: number): number {
  const newer = sightings.filter((s) => s.top > top).map((s) => s.answered);
  return newer.length === 0 ? 0 : Math.max(0, at - Math.min(...newer));
}

/** See ListingHistory.tails: from the reads that sent a count, tails never going back as versions grow. */
function tailsIn(
  sightings: readonly Sighting[],
  complete: boolean,
  baseTop: number,
  top: number,
  /** Records that left from the middle: a count that many short may be theirs, not the tail's. */
  gone: number,
): { low: number; high: number } {
  let low = complete ? 0 : Number.NEGATIVE_INFINITY;
  let high = Number.POSITIVE_INFINITY;
  for (const s of sightings) {
    if (s.tail === undefined) continue;
    if (s.top <= top) low = Math.max(low, s.tail - gone);
    if (s.top >= top) high = Math.min(high, s.tail);
  }
  // No read sent a count: records leave the tail at most as fast as they arrive (a window), or not at all.
  if (high === Number.POSITIVE_INFINITY) high = Number.isFinite(low) ? low + Math.max(0, top - baseTop) : low;
  return { low, high: Math.max(low, high) };
}

/**
 * The sighting a read of the head is of `lineage`'s versions (the lineage takes in the records it lacked): `ahead`
 * when its records all arrived since the newest version known, undefined when no version explains it.
 */
function sightingIn(
  lineage: Lineage,
  records: readonly Json[],
  span: Span,
  { count, connection, full }: HeadRead,
): Sighting | 'ahead' | undefined {
  const top = lineage.head(records, full);
  if (top === 'ahead' || top === undefined) return top;
  const tail = count !== undefined ? top - count : undefined;
  return { ...span, top, ...(tail !== undefined ? { tail } : {}), ...(connection !== undefined ? { connection } : {}) };
}

/**
 * What a new read of the head shows of the listing's consistency, against the reads answered before it was sent:
 * how many versions behind the newest of them it is, and how long that newer one had been seen.
 */
function measure(measured: { behind: number; stale: number }, sightings: readonly Sighting[], sighting: Sighting): void {
  const before = sightings.filter((s) => s.answered < sighting.sent);
  measured.behind = Math.max(measured.behind, Math.max(sighting.top, ...before.map((s) => s.top)) - sighting.top);
  const newer = before.filter((s) => s.top > sighting.top).map((s) => s.answered);
  if (newer.length > 0) measured.stale = Math.max(measured.stale, sighting.sent - Math.min(...newer));
}

/** The consistency figures of a listing from its sightings and what was measured as they came. */
function figuresOf(
  sightings: readonly Sighting[],
  lineage: Lineage | undefined,
  baseTop: number,
  measured: { readonly behind: number; readonly page: number; readonly search: number },
): ConsistencyFigures {
  const byConnection = new Map<number, Set<number>>();
  for (const s of sightings)
    if (s.connection !== undefined) byConnection.set(s.connection, (byConnection.get(s.connection) ?? new Set()).add(s.top));
  const versionsOn = [...byConnection.values()];
  // Several versions at once, each connection keeping to its own: a balancer pinning connections to replicas.
  const pinned = measured.behind > 0 && versionsOn.every((v) => v.size === 1) && new Set(versionsOn.flatMap((v) => [...v])).size > 1;
  return {
    versions: new Set(sightings.map((s) => s.top)).size,
    arrived: lineage ? lineage.ids.length - baseTop : 0,
    behindRecords: measured.behind,
    pageStalenessMs: Math.round(measured.page),
    searchStalenessMs: Math.round(measured.search),
    ...(byConnection.size > 1 ? { connections: { seen: byConnection.size, pinned } } : {}),
  };
}
