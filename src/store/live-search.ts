import type { ApiRecord } from '../fixtures/record-factory.ts';
import type { LiveCollection } from '../live/live-collection.ts';
import { BETWEEN_REQUESTS, everyWhileAlive, inBackground } from './between-requests.ts';
import { type IndexBuild, indexBuild } from './index-build.ts';
import type { Warming } from './record-store.ts';
import { LAYOUT_SAMPLE, type SearchLayout, searchLayout, textHolds } from './search-index.ts';

/** Records per part of the index at most: what a search scans, by text, while the newest is built. */
const LIVE_BLOCK = 4096;

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
  /** Notes a request's moment: seals blocks of the arrivals settled by then (built between requests). */
  advance(t: number): void;
  /**
   * How many settled records of the window, as of the clock now, each search scans by text for want of a
   * built part (the parts of the window at start aside: a search never scans those). Once ready, fewer
   * than two blocks, whatever the load.
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
 * 64 to 4,096. Once ready, a search scans fewer than two blocks by text (see LiveSearch.backlog).
 *
 * @example
 * liveBlock(20_000); // 1250
 */
export function liveBlock(size: number): number {
  return Math.min(LIVE_BLOCK, Math.max(64, Math.ceil(size / 16)));
}

/** Records `bottom` up to `top` (record numbers; position j holds bottom + j), indexed as they were when final. */
interface Part {
  readonly top: number;
  readonly bottom: number;
  readonly build: IndexBuild;
  /** Built first: until it is, a large window's search waits. */
  readonly first: boolean;
}

/**
 * The search of a live collection (see src/live/): the window's records that will not change again are
 * indexed in parts of at most a block, on a grid of record numbers (the window at start too, so what leaves
 * the window leaves the index a block at a time), each part's hits kept to the window at t; the records
 * still changing at t, and the settled ones no built part holds yet, are scanned at t. One upkeep builds
 * the parts and makes the texts to scan, between requests with a share of the loop's time that load cannot
 * starve (see inBackground), and while no request comes (a timer): once ready, at most one part waits to
 * be built, and a request that seals another finishes the older first.
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
  const part = (bottom: number, top: number, t: number, first: boolean): Part => {
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
    return { top, bottom, build, first };
  };

  // At start: the window's settled records, in parts on the grid (record r is in block ceil(r / block)).
  const settledAtStart = live.settled(start);
  const oldest = live.arrived(start) - live.size + 1;
  let sealed = settledAtStart;
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
  // Oldest first, up to the first part not built yet: no record up to prunedTo has a text in `tail`.
  const prune = () => {
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
    for (let i = parts.length - 1; i >= 0; i -= 1) {
      if (parts[i]!.build.step(until)) continue;
      return false;
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
  /**
   * Finishes the later parts not built yet but the newest: a request that seals another waits for them.
   * The window's parts at start are left to the upkeep (a small window's search completes them; a large
   * one's waits for them): finishing them here would stall a page request for the whole first build.
   */
  const keepPace = () => {
    for (let i = parts.length - 1; i >= 1; i -= 1) if (!parts[i]!.first) parts[i]!.build.complete();
    prune();
  };
  const olderBuilt = () => parts.every((p, i) => i === 0 || p.build.index());

  /** Seals a part for each block of arrivals settled, and drops parts that left the window (both as of the newest t). */
  const advance = (t: number) => {
    if (t <= latest) return;
    latest = t;
    const bottom = live.arrived(t) - live.size + 1;
    const now = live.settled(t);
    sealed = Math.max(sealed, bottom - 1);
    let more = false;
    for (let top = (Math.floor(sealed / block) + 1) * block; top <= now; top += block) {
      parts.unshift(part(sealed + 1, top, t, false));
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
    if (more) {
      built ||= firstBuilt();
      if (built) keepPace();
    }
    if (warmed < warmTo || more) queue();
  };
  queue();

  const share = () => {
    const first = firstParts();
    const count = first.reduce((sum, p) => sum + p.top - p.bottom + 1, 0);
    return count === 0 ? 1 : first.reduce((sum, p) => sum + p.build.share() * (p.top - p.bottom + 1), 0) / count;
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
      const inWindow = (low: number, high: number) => Math.max(0, high - Math.max(low, bottom) + 1);
      let count = inWindow(sealed + 1, live.settled(latest));
      // A first part is not scanned: a small window's search builds it, a large one's waits for it.
      for (const p of parts) if (!p.first && !p.build.index()) count += inWindow(p.bottom, p.top);
      return count;
    },
    tick: () => advance(clock()),
    indexed: () => parts.reduce((sum, p) => sum + p.top - p.bottom + 1, 0),
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
      let cursor = top;
      for (const p of parts) {
        if (cursor < bottom) break;
        if (p.bottom > cursor) continue;
        const high = Math.min(p.top, cursor);
        const low = Math.max(p.bottom, bottom);
        if (cursor > p.top) scan(cursor, p.top + 1);
        const index = p.build.index() ?? (background && !p.first ? undefined : p.build.complete());
        if (index) {
          const found = index.search(needle);
          // Positions ascend with record numbers: read backwards, newest first.
          for (let k = found.length - 1; k >= 0; k -= 1) {
            const r = p.bottom + found[k]!;
            if (r <= high && r >= low && !changing.has(r)) hits.push(r);
          }
        } else scan(high, low);
        cursor = low - 1;
      }
      scan(cursor, bottom);
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
