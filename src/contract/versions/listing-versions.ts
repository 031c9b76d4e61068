// What a check asks of a listing's versions: an answer judged by the rule, and the words that name a version.
import { identities, identity, recordsOf } from '../records.ts';
import type { Exchange } from '../types.ts';
import { duration } from '../../shared/duration.ts';
import { createHistory, type HeadRead, type ListingHistory, type Span, versionAt } from './history.ts';
import type { Matcher, Version } from './lineage.ts';
import { explain, expectedOf, givingTops, olderGiving, type Claim, type Explanation, type Shown } from './rule.ts';

type Json = Record<string, unknown>;

/** How often, at most, a search's judge reads the head to learn whether the listing moves at all. */
const HEARTBEAT_MS = 1_000;
/**
 * Reads of the head an answer no version explains is judged again after, once replicas were seen apart: each may
 * come from a replica behind the one that answered (two in turn: all four from the one behind 1 time in 16).
 */
const READS_WHEN_APART = 4;
/** The first wait before a search behind its data is asked again; each next one doubles, within --max-staleness. */
const FIRST_WAIT_MS = 100;

/** What judging an answer by the rule came to. */
export type Judged =
  | { readonly kind: 'explained' }
  /** No admissible version explains it: why, in words naming the versions (for a finding's message and `expected`). */
  | { readonly kind: 'unexplained'; readonly why: string; readonly expected: string }
  /**
   * The run cannot tell: what it would have needed. `newer`: the answer shows a version newer than any read of the
   * head, which replicas apart may have held unseen.
   */
  | { readonly kind: 'unknown'; readonly why: string; readonly newer?: true };

/** How the versions of one listing reach the target: a read of its head, an answer asked again. */
export interface VersionReads {
  /** Page 1 at the largest size, sent now: a sighting of the version current now. */
  readHead(): Promise<unknown>;
  /** Page 1 at the largest size, three times at once on connections of their own: replicas pinned to connections show. */
  readHeadWide?(): Promise<unknown>;
  /**
   * Page `page` (1 the first) at the size of readHead's (the largest) or at `size`, no search, sent now: what lies
   * below a read of the head.
   */
  readonly below?: { readonly size: number; read(page: number, size?: number): Promise<Exchange> };
  /** The listing's count header's name, when the spec has one. */
  readonly countHeader: string | undefined;
  /** Whether a search finds a record: the spec's assumed rule. */
  readonly matches: Matcher;
}

/** A listing's versions as the run saw them, and the rule applied to an answer. */
export interface ListingVersions {
  readonly history: ListingHistory;
  readonly maxStalenessMs: number;
  /** What an answer shows of a claim (its records, its count), or undefined when it shows neither. */
  shownOf(exchange: Exchange, claim: Claim): Shown | undefined;
  /** Takes in an answer to page 1 with no search (a read of the head) of `size` records at most. */
  sighting(exchange: Exchange, size: number): void;
  /**
   * Judges `exchange` by the rule for `claim`: when it shows a version newer than any seen, or none explains it,
   * the head is read again first; a search answered as an older version is asked again (`again`) while the
   * version it shows could still catch up within --max-staleness. `shown`: what it showed, when the claim is not read
   * from its records and count header (the count Link's pages imply).
   */
  judge(exchange: Exchange, claim: Claim, again?: () => Promise<Exchange>, shown?: Shown): Promise<Judged>;
  /**
   * The tops of the versions admissible for `exchange`'s time that give its answer to `claim` as the run knows them
   * now (judge it first, so that the head is read as it needs); undefined when it shows nothing to judge.
   */
  giving(exchange: Exchange, claim: Claim): readonly number[] | undefined;
  /** A version in words: its size and newest record, and when it was first seen. */
  describe(version: Version): string;
  /**
   * A read under way that may mend the lineage (records a torn read skipped): an answer no version explains, or
   * one newer than any seen, is judged again once the reads under way are done.
   */
  mending(read: Promise<unknown>): void;
}

/**
 * The versions of one listing, with `reads` to read its head again.
 *
 * @example
 * const versions = createListingVersions({ readHead, countHeader: 'x-total-count', matches: containsTerm }, 10_000);
 * const judged = await versions.judge(exchange, { term: '', page: { offset: 9, size: 1 } });
 */
export function createListingVersions(reads: VersionReads, maxStalenessMs: number): ListingVersions {
  const history = createHistory(reads.matches);
  const pending = new Set<Promise<unknown>>();
  const shownOf = (exchange: Exchange, claim: Claim) => shownIn(reads, exchange, claim);
  const explainReading = readingJudge(history, reads, pending, maxStalenessMs);
  const versions: ListingVersions = {
    history,
    maxStalenessMs,
    shownOf,
    sighting(exchange, size) {
      const records = recordsOf(exchange);
      if (!records || !exchange.span) return;
      const read = headReadOf(reads, exchange, records.length >= size);
      // Below a smaller page of records arrived lie pages of another size: the read of the head that places them reaches down.
      if (history.sighting(records, exchange.span, read) === 'ahead' && reads.below?.size === size)
        versions.mending(reachDown(history, reads, records, { span: exchange.span, read }));
    },
    async judge(exchange, claim, again, given) {
      const shown = given && exchange.span ? given : shownOf(exchange, claim);
      if (!shown) return { kind: 'unknown', why: 'the answer shows no records or count to judge' };
      // Edits show where answers show records: a search's records tell what changed deep in the listing.
      takeIn(versions, reads, exchange, claim);
      let first = await explainReading(exchange, shown, claim);
      // An older version's answer before any read of the head after it: the version current when it was made may be
      // one the run has not seen yet (a window's count for a term goes down and up again as records come and go).
      if (first.kind === 'stale' && (await readHeadAfter(history, reads, exchange.span!.answered)))
        first = await explainReading(exchange, shown, claim);
      // A search asked again, judged by the rule (undefined when its answer shows nothing to judge).
      const askAgain: AskAgain | undefined =
        kindOf(claim) === 'search' && again
          ? async () => {
              const next = await again();
              const nextShown = shownOf(next, claim);
              if (!nextShown) return undefined;
              // Judged against the version current when it was answered: no read of the head may have come since (a
              // window's count for a term comes back to an older version's as records come and go).
              await readHeadAfter(history, reads, next.span!.answered);
              return { verdict: await explainReading(next, nextShown, claim), span: next.span! };
            }
          : undefined;
      const verdict = askAgain ? await current(versions, reads, { verdict: first, answered: exchange.span!.answered }, askAgain) : first;
      const caught = verdict.kind === 'stale' && askAgain ? await catchUp(versions, verdict, askAgain, exchange.span!.sent) : verdict;
      return words(versions, caught, claim, shown, exchange.span!);
    },
    mending(read) {
      // Settled either way: what it would have mended is only not known (never a rejection left unhandled).
      const done: Promise<unknown> = read.then(
        () => pending.delete(done),
        () => pending.delete(done),
      );
      pending.add(done);
    },
    giving(exchange, claim) {
      const shown = shownOf(exchange, claim);
      return shown && givingTops(history, { claim, shown, span: exchange.span!, kind: kindOf(claim), maxStaleMs: maxStalenessMs });
    },
    describe: (version) => describeIn(history, version),
  };
  return versions;
}

/**
 * The rule on an answer, reading the head again when it cannot tell yet: when the head showed records not placed,
 * when the answer shows a version newer than any seen, or none explains it.
 */
function readingJudge(history: ListingHistory, reads: VersionReads, pending: ReadonlySet<Promise<unknown>>, maxStaleMs: number) {
  /** The read of the head made when it last showed records not placed, shared by the judges then. */
  let placing: { readonly since: number; readonly read: Promise<unknown> } | undefined;
  /** The read down under way or last made: when it began, how deep it reads, whether it got there. */
  let last: { readonly began: number; readonly depth: number; readonly reached: Promise<boolean> } | undefined;
  const down = (answered: number, depth: number): Promise<boolean> => {
    if (!last || last.began < answered || last.depth < depth)
      last = { began: performance.now(), depth, reached: readDown(history, reads, depth) };
    return last.reached;
  };
  return async (exchange: Exchange, shown: Shown, claim: Claim): Promise<Explanation> => {
    const judgeNow = () => explain(history, { claim, shown, span: exchange.span!, kind: kindOf(claim), maxStaleMs });
    let verdict = judgeNow();
    // A read of the head showed only records not placed yet: a read at the largest size and the pages below it
    // place them, when any can (once for each time the head showed such records).
    const unplaced = history.unplacedSince();
    if (verdict.kind === 'unknown' && unplaced !== undefined) {
      if (placing?.since !== unplaced) placing = { since: unplaced, read: reads.readHead() };
      await placing.read;
      // That read too may show only records arrived since: the pages below it are read (see reachDown).
      await Promise.allSettled([...pending]);
      verdict = judgeNow();
    }
    if ((verdict.kind === 'newer' || verdict.kind === 'unexplained') && pending.size > 0) {
      await Promise.allSettled([...pending]);
      verdict = judgeNow();
    }
    // Replicas apart: a read may come from one behind the one that answered, and so may the next.
    const tries = history.behindVersions() > 0 ? READS_WHEN_APART : 1;
    for (let n = 0; n < tries && (verdict.kind === 'newer' || verdict.kind === 'unexplained'); n += 1) {
      await reads.readHead();
      verdict = judgeNow();
    }
    // Records may have left from the middle above its records since the reads that reached them: read down to it.
    if (reads.below && mayHaveLeftAbove(history, claim, shown, verdict)) {
      const reached = await down(exchange.span!.answered, depthOf(history, shown));
      verdict = judgeNow();
      if (!reached && (verdict.kind === 'stale' || verdict.kind === 'unexplained') && history.lineage()!.gone() > 0)
        return { kind: 'unknown', why: LEFT_BELOW };
    }
    // Newer than every read of the head before and after it: once more on connections of their own, else it never was.
    if (verdict.kind === 'newer' && reads.readHeadWide) {
      await reads.readHeadWide();
      verdict = judgeNow();
    }
    // A read of the head once older than one before it (replicas apart, the newest records taken away): a version
    // may have stood between two reads unseen by either.
    if (verdict.kind === 'newer' && history.behindVersions() > 0)
      return { kind: 'unknown', why: 'it shows a version of the listing newer than any read of its head showed', newer: true };
    if (unseenSince(history, exchange.span!, shown, verdict)) return { kind: 'unknown', why: UNSEEN_SINCE };
    return verdict;
  };
}

const UNSEEN_SINCE =
  'it shows records no read of its head had shown, and no read of its head after it answered (timed out, or cut by the deadline)';

/**
 * Whether the answer may come from a version the run never saw: newer than any read showed, or showing records none
 * did, with no read of the head placed after it answered (its reads again timed out, or the deadline came): what
 * arrived meanwhile may give it.
 */
function unseenSince(history: ListingHistory, span: Span, shown: Shown, verdict: Explanation): boolean {
  if (history.sightings.some((s) => s.sent >= span.answered)) return false;
  if (verdict.kind === 'newer') return true;
  const lineage = history.lineage();
  return verdict.kind === 'unexplained' && lineage !== undefined && (shown.ids ?? []).some((id) => lineage.position(id) === undefined);
}

const LEFT_BELOW = 'records left the listing from its middle, and its records lie deeper than a fresh read from the head reaches';

/**
 * Whether records that left the listing from its middle unseen may explain an answer no admissible version gives,
 * or only an older one: they move every record below them up. Known for a plain page (no other movement does
 * that); for a search, once reads of the head showed records leave (Lineage.gone), an index behind is likelier.
 */
function mayHaveLeftAbove(history: ListingHistory, claim: Claim, shown: Shown, verdict: Explanation): boolean {
  if (verdict.kind !== 'stale' && verdict.kind !== 'unexplained') return false;
  const lineage = history.lineage();
  if (!lineage || !claim.page || (claim.term !== '' && lineage.gone() === 0)) return false;
  return (shown.ids ?? []).some((id) => lineage.position(id) !== undefined);
}

/**
 * How deep below the newest record known an answer's deepest known record stands, and as many again as may arrive
 * above it before a read down gets there.
 */
function depthOf(history: ListingHistory, shown: Shown): number {
  const lineage = history.lineage()!;
  const positions = (shown.ids ?? []).flatMap((id) => lineage.position(id) ?? []);
  return lineage.ids.length - Math.min(...positions) + OVERLAP;
}

/** Records a page read down may share with the page above: as many may arrive or leave between the two reads. */
const OVERLAP = 10;
/** Pages a read down makes, at most. */
const MAX_DOWN = 20;

/**
 * The listing read from its head down to `depth` records, each page overlapping the one above by up to OVERLAP
 * records, so that records arriving or leaving between two reads hide none: taken in as one read of the head, the
 * records it skips left from the middle (see Lineage.gone). Whether it got that deep (pages of one read joined).
 */
async function readDown(history: ListingHistory, reads: VersionReads, depth: number): Promise<boolean> {
  const head = await reads.below!.read(1);
  const records = [...(recordsOf(head) ?? [])];
  const shown = new Set(identities(records));
  // A first page short of the largest size is the whole listing.
  let end = records.length < reads.below!.size ? Number.POSITIVE_INFINITY : records.length;
  for (let n = 1; end < depth && n < MAX_DOWN; n += 1) {
    const next = overlapping(end, reads.below!.size);
    if (!next) break;
    const below = recordsOf(await reads.below!.read(next.page, next.size)) ?? [];
    // Joined only where it shares a record with those above: no count or record known stands in for that here.
    const after = belowShown(below, shown, () => false, undefined);
    if (after === undefined) break;
    extend(records, shown, after);
    end = below.length < next.size ? Number.POSITIVE_INFINITY : next.start + below.length;
  }
  if (head.span && records.length > 0) history.sighting(records, head.span, { ...headReadOf(reads, head, true), loose: true });
  return end >= depth;
}

/**
 * The largest page (at most `largest`) that starts up to OVERLAP records above `end`, the first offset not read,
 * and reaches past it: its 1-based index, its size and where it starts.
 *
 * @example
 * overlapping(100, 100); // { page: 2, size: 99, start: 99 }
 */
function overlapping(end: number, largest: number): { readonly page: number; readonly size: number; readonly start: number } | undefined {
  for (let size = largest; size >= 2; size -= 1) {
    const before = Math.floor((end - 1) / size);
    const start = before * size;
    if (before >= 1 && start >= end - OVERLAP && start + size > end) return { page: before + 1, size, start };
  }
  return undefined;
}

/**
 * What an answer judged shows of the listing: a plain page's records mend a torn read; a first page showing records
 * above the newest known is a read of the head (replicas apart may have kept the run's own reads from showing
 * them); the records of any answer tell edits.
 */
function takeIn(versions: ListingVersions, reads: VersionReads, exchange: Exchange, claim: Claim): void {
  const records = recordsOf(exchange) ?? [];
  const lineage = versions.history.lineage();
  if (!lineage || records.length === 0) return;
  if (claim.term === '') lineage.mend(records);
  if (claim.term === '' && claim.page?.offset === 0 && lineage.position(identity(records[0]!)) === undefined) {
    versions.history.sighting(records, exchange.span!, { ...headReadOf(reads, exchange, records.length >= claim.page.size), loose: true });
  }
  lineage.observe(records);
}

/** What a read of the head showed besides its records: the count it sent, its connection, whether its page was `full`. */
function headReadOf(reads: VersionReads, exchange: Exchange, full: boolean): HeadRead {
  const [count, connection] = [countSent(reads.countHeader, exchange), exchange.response?.connection];
  return { ...(count !== undefined ? { count } : {}), ...(connection !== undefined ? { connection } : {}), full };
}

/**
 * The count an answer sent in the header `name` (the spec's count header), when it is a whole number.
 *
 * @example
 * countSent('x-total-count', exchange); // 312, or undefined when absent or not a whole number
 */
export function countSent(name: string | undefined, exchange: Exchange): number | undefined {
  const header = name ? exchange.response?.headers[name] : undefined;
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** The kind of request a claim is, for the staleness measured for it. */
const kindOf = (claim: Claim) => (claim.term === '' ? 'page' : 'search');

/** See ListingVersions.shownOf. */
function shownIn(reads: VersionReads, exchange: Exchange, claim: Claim): Shown | undefined {
  const records = claim.page ? recordsOf(exchange) : undefined;
  const count = countSent(reads.countHeader, exchange);
  if ((claim.page && !records) || (claim.count && count === undefined) || !exchange.span) return undefined;
  return { ...(records ? { ids: identities(records) } : {}), ...(claim.count ? { count } : {}) };
}

/** Pages read below a head that showed only records arrived since the newest version known, at most. */
const MAX_BELOW = 20;

/**
 * A read of the head that showed only records arrived since the newest version known (more arrived between two reads
 * of the head than a page holds): the pages below it are read until one meets a record known, and the head and
 * they are taken in as one sighting of the version current when the head was read.
 */
async function reachDown(
  history: ListingHistory,
  reads: VersionReads,
  head: readonly Json[],
  { span, read }: { readonly span: Span; readonly read: HeadRead },
): Promise<void> {
  const records = [...head];
  const shown = new Set(identities(records));
  const known = (record: Json) => history.lineage()?.position(identity(record)) !== undefined;
  for (let page = 2; page <= MAX_BELOW + 1; page += 1) {
    const exchange = await reads.below!.read(page);
    const below = recordsOf(exchange);
    if (!below || below.length === 0) return;
    const count = countSent(reads.countHeader, exchange);
    const after = belowShown(below, shown, known, read.count === undefined || count === undefined ? undefined : read.count === count);
    if (after === undefined) return;
    extend(records, shown, after);
    if (after.some(known)) {
      history.sighting(records, span, read);
      return;
    }
  }
}

/**
 * The records of a page below the head that follow those `shown` so far: records arriving since the head was read
 * push its records on into this page (those after the last shown follow it), or push the last shown past this
 * page. Holding neither, it follows the shown directly when nothing arrived (`countSame`: it sent the head's
 * count), else the shown lie further down (none follow here); undefined when no count tells.
 */
function belowShown(
  below: readonly Json[],
  shown: ReadonlySet<string>,
  known: (record: Json) => boolean,
  countSame: boolean | undefined,
): readonly Json[] | undefined {
  const last = below.findLastIndex((record) => shown.has(identity(record)));
  if (last >= 0) return below.slice(last + 1);
  if (below.some(known) || countSame === true) return below;
  return countSame === false ? [] : undefined;
}

/** Adds `after`, the records of a page below that follow those `shown`, to the records read so far. */
function extend(records: Json[], shown: Set<string>, after: readonly Json[]): void {
  for (const record of after) shown.add(identity(record));
  records.push(...after);
}

/** Reads the head when no read of it was sent after `answered`; whether it did. */
async function readHeadAfter(history: ListingHistory, reads: VersionReads, answered: number): Promise<boolean> {
  if (history.sightings.some((s) => s.sent >= answered)) return false;
  await reads.readHead();
  return true;
}

/** A search asked again, judged by the rule, with when it was sent and answered (undefined when it shows nothing to judge). */
type AskAgain = () => Promise<{ readonly verdict: Explanation; readonly span: Span } | undefined>;

/**
 * A search explained by the newest version the run knew of, on a listing that moves: the run may not have seen the
 * head move on since. The head is read again; when it moved, the search is asked again after it, so that an index
 * that never takes in new records answers as an older version than the run now knows (stale), and one behind its
 * refresh catches up.
 */
async function current(
  versions: ListingVersions,
  reads: VersionReads,
  { verdict, answered }: { readonly verdict: Explanation; readonly answered: number },
  askAgain: AskAgain,
): Promise<Explanation> {
  const { history } = versions;
  if (verdict.kind !== 'explained' || !history.seen()) return verdict;
  // Whether the listing moves at all: the head read at most once a HEARTBEAT_MS of the run, when nothing else read it.
  if (!history.sightings.some((s) => s.answered > answered - HEARTBEAT_MS)) await reads.readHead();
  const seen = history.seen()!;
  if (seen.newest === seen.oldest) return verdict;
  // A read of the head after this answer tells whether a newer version stood then; one is made when none was.
  await readHeadAfter(history, reads, answered);
  if (history.seen()!.newest === verdict.version.top) return verdict;
  const now = (await askAgain())?.verdict;
  return !now || now.kind === 'explained' ? verdict : now;
}

/**
 * A search answered as a version older than the staleness measured allows: asked again, the waits doubling,
 * while that version is younger than --max-staleness. Answered later as a newer version, it was an index behind
 * its records, and its lag is measured (ListingHistory.agedBy at the refresh): from when a read of the head first
 * showed what it held back to the middle of its last answer still behind and its first caught up; never, it stays
 * stale.
 */
async function catchUp(
  versions: ListingVersions,
  stale: Extract<Explanation, { kind: 'stale' }>,
  askAgain: AskAgain,
  /** When the search first answered behind was sent. */
  sent: number,
): Promise<Explanation> {
  const { history } = versions;
  // Once a search of this listing was seen not to catch up within --max-staleness, none is waited on again.
  if (history.neverCaughtUp) return stale;
  let behindSince = sent;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, 1_000)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    const asked = await askAgain();
    if (!asked) return stale;
    const now = asked.verdict;
    const moved = now.kind === 'explained' || (now.kind === 'stale' && now.version.top > stale.version.top);
    if (moved) {
      // From when a read of the head first showed the first record it held back to the refresh, taken in the middle
      // of the last search still behind and the first caught up (never less than the first answer's staleness).
      history.noteSearchLag(history.agedBy(stale.version.top, (behindSince + asked.span.answered) / 2));
      return { kind: 'explained', version: stale.version, staleMs: stale.needMs };
    }
    if (now.kind !== 'stale' || now.needMs > versions.maxStalenessMs) {
      history.neverCaughtUp = now.kind === 'stale';
      return stale;
    }
    behindSince = asked.span.sent;
  }
}

/** The verdict in words for a finding: which versions were admissible, what the closest gives. */
function words(versions: ListingVersions, verdict: Explanation, claim: Claim, shown: Shown, span: Span): Judged {
  switch (verdict.kind) {
    case 'explained':
      return { kind: 'explained' };
    case 'unknown':
      return verdict;
    case 'newer': {
      const history = versions.history;
      const newest = history.seen()!.newest;
      const closest = versionAt(history, newest);
      const expected = describeShown(expectedOf(history.lineage()!, claim, closest) ?? {}, shown);
      return {
        kind: 'unexplained',
        why: `it shows the listing as records arriving would have moved it, a version newer than any read of its head showed before or after it (the newest, ${versions.describe(closest)}, gives ${expected})`,
        expected,
      };
    }
    case 'stale': {
      const lineage = versions.history.lineage()!;
      const high = versions.history.admissible(span, 0)!.high;
      const left = versions.describe(versionAt(versions.history, high));
      return {
        kind: 'unexplained',
        why: `only ${versions.describe(verdict.version)} gives it, a version older than the run's reads of the listing had left behind when it was sent (they showed ${left}), by more than the staleness measured and --max-staleness allow`,
        expected: describeShown(expectedOf(lineage, claim, { top: high, tail: verdict.version.tail }) ?? {}, shown),
      };
    }
    case 'unexplained': {
      const older = olderGiving(versions.history, { claim, shown, span, kind: kindOf(claim), maxStaleMs: versions.maxStalenessMs });
      return {
        kind: 'unexplained',
        why: `no version of the listing admissible for its time gives it (${verdict.admissible} admissible; the closest, ${versions.describe(verdict.closest)}, gives ${describeShown(verdict.expected, shown)})${
          older
            ? `; ${versions.describe(older.version)} gave it, left behind ${duration(older.needMs)} before it was sent, more than --max-staleness ${duration(versions.maxStalenessMs)} and the staleness measured allow`
            : ''
        }`,
        expected: describeShown(verdict.expected, shown),
      };
    }
  }
}

/** See ListingVersions.describe. */
function describeIn(history: ListingHistory, version: Version): string {
  const lineage = history.lineage();
  const newest = lineage?.ids[version.top - 1];
  // A tail below the records read is only known to be there: at least the records down to the oldest read.
  const size =
    version.tail < 0 ? `${Number.isFinite(version.tail) ? version.top - version.tail : version.top}+` : `${version.top - version.tail}`;
  return `the listing of ${size} records${newest ? ` whose newest is ${newest}` : ''}`;
}

/** What a version gives, in the terms the answer showed: records (a few) and the count. */
function describeShown(expected: Shown, shown: Shown): string {
  const parts: string[] = [];
  if (expected.ids) {
    const few = expected.ids.slice(0, 5).join(', ');
    parts.push(
      `${expected.ids.length} record${expected.ids.length === 1 ? '' : 's'}${few ? `: ${few}${expected.ids.length > 5 ? ', …' : ''}` : ''}`,
    );
  }
  if (expected.count !== undefined && (shown.count !== undefined || shown.countWithin)) parts.push(`a count of ${expected.count}`);
  return parts.join(', ') || 'nothing';
}
