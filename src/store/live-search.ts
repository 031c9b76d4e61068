import type { ApiRecord } from '../fixtures/record-factory.ts';
import type { LiveCollection } from '../live/live-collection.ts';
import { BETWEEN_REQUESTS, everyWhileAlive, inBackground } from './between-requests.ts';
import { type IndexBuild, indexBuild } from './index-build.ts';
import type { Warming } from './record-store.ts';
import { LAYOUT_SAMPLE, type SearchLayout, searchLayout, textHolds } from './search-index.ts';

/** Records per part of the index at most: what a search scans, by text, while the newest is built. */
const LIVE_BLOCK = 4096;
/** Parts of a window too large for parts of LIVE_BLOCK: their count. */
const LARGE_PARTS = 64;
/**
 * A block that fills over many requests is indexed in eighths meanwhile (minor parts, dropped once the
 * block's own part is built), so a search scans by text an eighth of a block or so, not up to two blocks.
 * Smaller blocks scan little as they are.
 */
const MINORS_PER_BLOCK = 8;
const MINOR_LEAST = 64;

/** How often the upkeep looks at the clock while no request comes, in blocks' time, and its bounds (ms). */
const TICKS_PER_BLOCK = 4;
const TICK_MS = { least: 250, most: 60_000 } as const;

/** A live collection's record as the search sees it at a moment: its searchable text (see searchTextOf). */
export type LiveText = (r: number, t: number) => string;

/** How a live collection's index is laid out. */
export interface LiveSearchOptions {
  /** Fields drawn from small sets (see DomainBuilder). */
  readonly pooledFields?: readonly string[];
  /** Past this many records in the window, the index is packed and a search waits for the first build. */
  readonly syncLimit: number;
  /** Up to this many records in the window, the index has trigram postings. */
  readonly trigramLimit: number;
}

/** Searches of a live collection at a moment: record numbers newest first, or `{ warming }` at start. */
export interface LiveSearch {
  search(needle: string, t: number): number[] | Warming;
  /**
   * The share of the first build done (0..1), 1 for a small window; once 1, it stays 1. A large window is
   * ready once its first parts are built and what arrived meanwhile is indexed or made ready to scan.
   */
  ready(): number;
  /** Notes a request's moment: seals blocks and minor parts of the arrivals settled by then (built between requests). */
  advance(t: number): void;
  /**
   * How many settled records of the window, as of the clock now, each search scans by text for want of a
   * built part (the parts of the window at start aside: a search never scans those). Once ready, fewer
   * than two blocks, whatever the load; fewer than two minor parts (see liveMinor) while arrivals are
   * noted as they come and the upkeep keeps pace.
   */
  backlog(): number;
  /** Notes the clock's moment (see advance): called between requests, so arrivals are indexed while none come. */
  tick(): void;
  /**
   * How many records the index's parts hold, built or not, in the window or not: what a search reads
   * through them. At most the window and a block, however long it runs.
   */
  indexed(): number;
}

/**
 * The records of a part sealed as arrivals settle, for a window of `size`: a sixteenth of the window, from
 * 64 to 4,096, and past 262,144 records a 64th (each part keeps its own dictionaries: a million alerts in
 * parts of 4,096 took 554 MB, over the 500 MB allowed). Once ready, a search scans fewer than two blocks by
 * text (see LiveSearch.backlog).
 *
 * @example
 * liveBlock(20_000); // 1250
 * liveBlock(1_000_000); // 15625
 */
export function liveBlock(size: number): number {
  return Math.min(Math.max(LIVE_BLOCK, Math.ceil(size / LARGE_PARTS)), Math.max(64, Math.ceil(size / 16)));
}

/**
 * The records of a minor part for a window of `size` (see MINORS_PER_BLOCK): an eighth of its block, or
 * undefined where that is under MINOR_LEAST. Once ready, a search scans fewer than two of them by text.
 *
 * @example
 * liveMinor(100_000); // 512
 * liveMinor(2_000); // undefined: a block of 125 is scanned as it is
 */
export function liveMinor(size: number): number | undefined {
  const eighth = Math.ceil(liveBlock(size) / MINORS_PER_BLOCK);
  return eighth >= MINOR_LEAST ? eighth : undefined;
}

/** Records `bottom` up to `top` (record numbers; position j holds bottom + j), indexed as they were when final. */
interface Part {
  readonly top: number;
  readonly bottom: number;
  readonly build: IndexBuild;
  /** Built first: until it is, a large window's search waits. */
  readonly first: boolean;
  /** An eighth of a block, sealed while the block fills: it answers for its records until the block's part is built. */
  readonly minor: boolean;
}

/** How a part of a live index answers a search: from its index, by a scan of its records' texts, or not (others do). */
type Reading = 'index' | 'scan' | 'skip';

/**
 * The search of a live collection (see src/live/): the window's records that will not change again are
 * indexed in parts of at most a block, on a grid of record numbers (the window at start too, so what leaves
 * the window leaves the index a block at a time), each part's hits kept to the window at t; the records
 * still changing at t, and the settled ones no built part holds yet, are scanned at t. One upkeep builds
 * the parts and makes the texts to scan, between requests with a share of the loop's time that load cannot
 * starve (see inBackground), and while no request comes (a timer): once ready, at most one block waits to
 * be built, and a request that seals another finishes the older first. Meanwhile the block filling now is
 * indexed in eighths (minor parts, see liveMinor), so a search scans few records by text at any moment.
 *
 * @example
 * const search = liveSearch(alerts, (r, t) => searchTextOf(alerts.record(r, t)), alerts.record, () => Date.now(), options);
 * search.search('freezer', Date.now()); // record numbers, newest first
 */
export function liveSearch(
  live: LiveCollection,
  text: LiveText,
  /** Record r as it is at t, for the index (a store may hand out one it keeps). */
  record: (r: number, t: number) => ApiRecord,
  clock: () => number,
  options: LiveSearchOptions,
): LiveSearch {
  const start = clock();
  const large = live.size > options.syncLimit;
  const trigrams = live.size <= options.trigramLimit;
  // Built between requests where that is allowed; a large window must be, everywhere.
  const background = BETWEEN_REQUESTS || large;
  // A collection whose records never leave is one part.
  const block = live.arrives ? liveBlock(live.size) : Number.MAX_SAFE_INTEGER;
  // Minor parts only where parts are built between requests: elsewhere a search completes what it reads.
  const minor = background && live.arrives ? liveMinor(live.size) : undefined;
  const parts: Part[] = [];

  // One layout for every part, from the newest records at the first part's moment (made in steps).
  let layout: SearchLayout | undefined;
  const sample: ApiRecord[] = [];
  const sampling = (t: number) => (until: number) => {
    const wanted = Math.min(live.size, LAYOUT_SAMPLE);
    const newest = live.arrived(t);
    while (!layout && sample.length < wanted) {
      sample.push(record(newest - sample.length, t));
      if (performance.now() >= until) return false;
    }
    layout ??= searchLayout(sample.splice(0), options.pooledFields, large ? { packed: true, partSize: Math.min(block, live.size) } : {});
    return true;
  };
  const part = (bottom: number, top: number, t: number, first: boolean, isMinor = false): Part => {
    const count = top - bottom + 1;
    const build = indexBuild({
      count,
      prepare: sampling(t),
      layOut: () => {
        sampling(t)(Number.POSITIVE_INFINITY);
        return layout!.builder(large ? count : undefined);
      },
      add: (builder, j) => builder.add(record(bottom + j, t)),
      trigrams,
      stepped: true,
    });
    return { top, bottom, build, first, minor: isMinor };
  };

  // At start: the window's settled records, in parts on the grid (record r is in block ceil(r / block)).
  const settledAtStart = live.settled(start);
  const oldest = live.arrived(start) - live.size + 1;
  let sealed = settledAtStart;
  // The newest record a minor part holds (sealed when none since the newest block).
  let minorSealed = settledAtStart;
  for (let top = settledAtStart; top >= oldest; ) {
    const bottom = Math.max(oldest, live.arrives ? Math.ceil(top / block) * block - block + 1 : oldest);
    parts.push(part(bottom, top, start, true));
    top = bottom - 1;
  }
  let latest = start;

  // Settled records no built part holds are scanned: their texts are kept in `tail` until their part is
  // built, made between requests as they settle (`warmed` is the newest made), so a scan only reads them.
  const tail = new Map<number, string>();
  let prunedTo = settledAtStart;
  // Oldest first, up to the first part not built yet: no record up to prunedTo has a text in `tail`. Minor
  // parts whose block's part is built leave.
  const prune = () => {
    for (let i = parts.length - 1; minor !== undefined && i >= 0; i -= 1) {
      const p = parts[i]!;
      if (p.minor && p.top <= sealed && parts.some((q) => !q.minor && q.bottom <= p.bottom && p.top <= q.top && q.build.index()))
        parts.splice(i, 1);
    }
    for (let i = parts.length - 1; i >= 0; i -= 1) {
      const p = parts[i]!;
      if (p.top <= prunedTo) continue;
      if (!p.build.index()) return;
      for (let r = Math.max(prunedTo + 1, p.bottom); r <= p.top; r += 1) tail.delete(r);
      prunedTo = p.top;
    }
  };
  const settledText = (r: number, t: number) => {
    let known = tail.get(r);
    if (known === undefined) {
      known = text(r, t);
      if (r > prunedTo) tail.set(r, known);
    }
    return known;
  };
  let warmed = settledAtStart;
  let warmTo = settledAtStart;
  // The texts of records still changing, each as of its latest change: every search scans them, and
  // making one costs a record.
  const movingTexts = new Map<number, { readonly version: number; readonly text: string }>();
  const movingText = (r: number, t: number) => {
    const version = live.version(r, t);
    let known = movingTexts.get(r);
    if (known?.version !== version) {
      known = { version, text: text(r, t) };
      movingTexts.set(r, known);
    }
    return known.text;
  };

  // The upkeep: texts to scan first (cheap, and scanned at once), then the oldest part not built.
  let queued = false;
  const upkeep = (until: number): boolean => {
    prune();
    const bottom = live.arrived(latest) - live.size + 1;
    // A record a built part holds is never scanned.
    warmed = Math.max(warmed, prunedTo);
    while (warmed < warmTo && performance.now() < until) {
      warmed += 1;
      if (warmed >= bottom) settledText(warmed, latest);
    }
    if (warmed < warmTo) return false;
    // Minor parts first (small, and each spares every search a scan), then the others oldest first.
    for (const minors of minor === undefined ? [false] : [true, false]) {
      for (let i = parts.length - 1; i >= 0; i -= 1) {
        if (parts[i]!.minor !== minors || parts[i]!.build.step(until)) continue;
        return false;
      }
    }
    prune();
    queued = false;
    return true;
  };
  const queue = () => {
    if (!background || queued) return;
    queued = true;
    inBackground(upkeep);
  };

  // The first parts still in the window (they leave it as the others do, built or not).
  const firstParts = () => parts.filter((p) => p.first);
  const firstBuilt = () => firstParts().every((p) => p.build.index());
  // First parts built: a large window's searches are answered from then on, and parts are kept in pace.
  let built = !large;
  /** The parts that may wait to be built: the newest block's and the newest minor. */
  const mayWait = (p: Part) => p === parts.find((q) => q.minor === p.minor);
  /**
   * Finishes the blocks not built yet but the newest, and the minor part before the newest: a request that
   * seals another waits for them (the upkeep's share of the loop, see inBackground, builds them long before
   * unless the loop is starved). The window's parts at start are left to the upkeep (a small window's search
   * completes them; a large one's waits for them): finishing them here would stall a page request for the
   * whole first build.
   */
  const keepPace = (minors: boolean) => {
    if (minors) parts.filter((p) => p.minor)[1]?.build.complete();
    else for (const p of parts) if (!p.minor && !p.first && !mayWait(p)) p.build.complete();
    prune();
  };
  const olderBuilt = () => parts.every((p) => mayWait(p) || p.build.index());

  /** The top of the next minor part: an eighth of a block on, or the block's end. */
  const nextMinorTop = () => Math.min(minorSealed + (minor ?? 0), (Math.floor(minorSealed / block) + 1) * block);
  /**
   * Seals a minor part for each eighth of a block and a part for each block of arrivals settled, and drops
   * parts that left the window (all as of the newest t).
   */
  const advance = (t: number) => {
    if (t <= latest) return;
    latest = t;
    const bottom = live.arrived(t) - live.size + 1;
    const now = live.settled(t);
    sealed = Math.max(sealed, bottom - 1);
    // Minor parts first, so a block's last eighth has one too (after a pause of more than a block, the
    // blocks before the newest whole one get none: a request seals those finished, see keepPace).
    minorSealed = Math.max(minorSealed, sealed, Math.floor(now / block) * block - block);
    let moreMinors = false;
    for (let top = nextMinorTop(); minor !== undefined && top <= now; top = nextMinorTop()) {
      parts.unshift(part(minorSealed + 1, top, t, false, true));
      minorSealed = top;
      moreMinors = true;
    }
    let more = false;
    for (let top = (Math.floor(sealed / block) + 1) * block; top <= now; top += block) {
      // Before the minor parts sealed in it, which it replaces once built.
      const before = parts.findIndex((p) => p.top <= top);
      parts.splice(before < 0 ? parts.length : before, 0, part(sealed + 1, top, t, false));
      sealed = top;
      more = true;
    }
    for (let i = parts.length - 1; i >= 0 && parts[i]!.top < bottom; i -= 1) parts.pop();
    // Texts of records that left the window (parts built since are pruned by the next upkeep or search).
    if (prunedTo < bottom - 1) {
      for (const r of tail.keys()) if (r < bottom) tail.delete(r);
      prunedTo = bottom - 1;
    }
    warmTo = now;
    warmed = Math.max(warmed, bottom - 1);
    if (more || moreMinors) {
      built ||= firstBuilt();
      if (built && more) keepPace(false);
      if (built && moreMinors) keepPace(true);
    }
    if (warmed < warmTo || more || moreMinors) queue();
  };

  queue();

  const share = () => {
    const first = firstParts();
    const count = first.reduce((sum, p) => sum + p.top - p.bottom + 1, 0);
    return count === 0 ? 1 : first.reduce((sum, p) => sum + p.build.share() * (p.top - p.bottom + 1), 0) / count;
  };
  /** How a part not built is read: a block's leaves its records to the minor parts sealed in it and a scan between them. */
  const unbuilt = (p: Part): Reading => (minor !== undefined && !p.minor && !p.first ? 'skip' : 'scan');
  /**
   * The window from `top` down to `bottom` as a search reads it, newest first: `indexed` for each part that
   * answers from its index (with its range in the window), `scanned` for each range read by text.
   */
  const walk = (
    top: number,
    bottom: number,
    reading: (p: Part) => Reading,
    indexed: (p: Part, high: number, low: number) => void,
    scanned: (from: number, to: number) => void,
  ) => {
    let cursor = top;
    for (const p of parts) {
      if (cursor < bottom) break;
      if (p.bottom > cursor) continue;
      const how = reading(p);
      if (how === 'skip') continue;
      if (cursor > p.top) scanned(cursor, p.top + 1);
      const high = Math.min(p.top, cursor);
      const low = Math.max(p.bottom, bottom);
      if (how === 'index') indexed(p, high, low);
      else scanned(high, low);
      cursor = low - 1;
    }
    if (cursor >= bottom) scanned(cursor, bottom);
  };

  // Once ready, ready for good: later parts never make a search wait (they are scanned until built).
  let readyOnce = !large;
  let catchUp: number | undefined;

  const search: LiveSearch = {
    ready() {
      if (readyOnce) return 1;
      advance(clock());
      built ||= firstBuilt();
      // Built: then ready once the parts sealed meanwhile are built but the newest, and the texts of what
      // arrived meanwhile are made (arrivals go on meanwhile).
      if (built && olderBuilt()) catchUp ??= warmTo;
      readyOnce = catchUp !== undefined && warmed >= catchUp;
      return readyOnce ? 1 : Math.min(share(), 0.99);
    },
    advance,
    backlog() {
      advance(clock());
      const bottom = live.arrived(latest) - live.size + 1;
      let count = 0;
      // A first part is not scanned: a small window's search builds it, a large one's waits for it.
      const reading = (p: Part): Reading => (p.first || p.build.index() ? 'index' : unbuilt(p));
      walk(
        live.settled(latest),
        bottom,
        reading,
        () => {},
        (from, to) => {
          count += from - to + 1;
        },
      );
      return count;
    },
    tick: () => advance(clock()),
    // A minor part of a sealed block is counted as its block.
    indexed: () => parts.reduce((sum, p) => (p.minor && p.top <= sealed ? sum : sum + p.top - p.bottom + 1), 0),
    search(needle, t) {
      advance(t);
      const top = live.arrived(t);
      const bottom = top - live.size + 1;
      if (!built) {
        if (!firstBuilt()) return { warming: share() };
        built = true;
      }
      prune();
      const changing = new Set(live.unsettled(t));
      const hits: number[] = [];
      const scan = (from: number, to: number) => {
        for (let r = from; r >= to; r -= 1) if (!changing.has(r) && textHolds(settledText(r, t), needle)) hits.push(r);
      };
      const reading = (p: Part): Reading =>
        (p.build.index() ?? (background && !p.first ? undefined : p.build.complete())) ? 'index' : unbuilt(p);
      const indexed = (p: Part, high: number, low: number) => {
        const found = p.build.index()!.search(needle);
        // Positions ascend with record numbers: read backwards, newest first.
        for (let k = found.length - 1; k >= 0; k -= 1) {
          const r = p.bottom + found[k]!;
          if (r <= high && r >= low && !changing.has(r)) hits.push(r);
        }
      };
      walk(top, bottom, reading, indexed, scan);
      // The changing records, as they are at t, merged in (newest first).
      const moving = [...changing].filter((r) => r <= top && r >= bottom && textHolds(movingText(r, t), needle)).sort((a, b) => b - a);
      if (movingTexts.size > 2 * changing.size) for (const r of movingTexts.keys()) if (!changing.has(r)) movingTexts.delete(r);
      return moving.length === 0 ? hits : merge(hits, moving);
    },
  };
  if (live.arrives) {
    const blockMs = block * live.beat;
    everyWhileAlive(search, Math.min(TICK_MS.most, Math.max(TICK_MS.least, blockMs / TICKS_PER_BLOCK)), tick);
  }
  return search;
}

/** The upkeep timer's call: a function of the module, so the timer holds no search alive. */
const tick = (search: LiveSearch) => search.tick();

/** Two lists of record numbers, each newest first, as one. */
function merge(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i]! > b[j]!) ? a[i++]! : b[j++]!);
  return out;
}
