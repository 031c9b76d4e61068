import type { ApiRecord } from '../fixtures/record-factory.ts';
import type { LiveCollection } from '../live/live-collection.ts';
import { BETWEEN_REQUESTS, inBackground, SLICE_MS } from './between-requests.ts';
import { type IndexBuild, indexBuild } from './index-build.ts';
import type { Warming } from './record-store.ts';
import { createSearchIndexBuilder, LAYOUT_SAMPLE, textHolds } from './search-index.ts';

/** Arrivals per part added to the index as they settle: the most a search scans while one is built. */
const LIVE_BLOCK = 4096;

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
}

/** Records `top` down to `bottom` (record numbers), indexed as they were when final. */
interface Part {
  readonly top: number;
  readonly bottom: number;
  /** Whether the index's positions hold arrivals (bottom + j), or the seed's records (-j). */
  readonly arrivals: boolean;
  readonly build: IndexBuild;
  /** Built first: until it is, a large window's search waits. */
  readonly first: boolean;
}

/**
 * The search of a live collection (see src/live/): the window's records that will not change again are
 * indexed in parts (the seed's records and the arrivals at start, then blocks of LIVE_BLOCK arrivals as
 * they settle), each part's hits kept to the window at t; the records still changing at t, and any not
 * in a built part, are scanned at t. Parts that leave the window are dropped.
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
  const parts: Part[] = [];
  // A window's worth of arrivals in a few blocks: a small window's blocks index little that has left it.
  const block = Math.min(LIVE_BLOCK, Math.max(64, Math.ceil(live.size / 16)));
  const part = (top: number, bottom: number, arrivals: boolean, t: number, first: boolean) => {
    const count = top - bottom + 1;
    const at = arrivals ? (j: number) => bottom + j : (j: number) => -j;
    const build = indexBuild({
      count,
      layOut: () =>
        createSearchIndexBuilder(
          Array.from({ length: Math.min(count, LAYOUT_SAMPLE) }, (_, j) => record(at(j), t)),
          options.pooledFields,
          large ? { expected: count, packed: true } : {},
        ),
      add: (builder, j) => builder.add(record(at(j), t)),
      trigrams: live.size <= options.trigramLimit,
      always: large,
    });
    parts.push({ top, bottom, arrivals, build, first });
  };
  // At start: the seed's records still in the window, and the arrivals settled by then.
  const arrived = live.arrived(start);
  const settled = live.settled(start);
  let sealed = settled;
  const oldest = Math.max(1, arrived - live.size + 1);
  if (settled >= oldest) part(settled, oldest, true, start, true);
  if (arrived < live.size) part(0, arrived - live.size + 1, false, start, true);
  let latest = start;
  // Settled arrivals not in a built block are scanned: their texts are kept in `tail` until their block is
  // built, made between requests as they settle (`warmed` is the newest made), so a scan only reads them.
  const tail = new Map<number, string>();
  let prunedTo = settled;
  // Oldest first, up to the first block not built yet: every arrival up to prunedTo has no text in `tail`.
  const prune = () => {
    for (let i = parts.length - 1; i >= 0; i -= 1) {
      const p = parts[i]!;
      if (!p.arrivals || p.top <= prunedTo) continue;
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
  let warmed = settled;
  let warmTo = settled;
  let warming = false;
  const warm = () => {
    prune();
    const until = performance.now() + SLICE_MS;
    const bottom = live.arrived(latest) - live.size + 1;
    while (warmed < warmTo && performance.now() < until) {
      warmed += 1;
      if (warmed >= bottom) settledText(warmed, latest);
    }
    warming = warmed < warmTo;
    return !warming;
  };

  /** Seals a block for each `block` arrivals settled, and drops parts that left the window (both as of the newest t). */
  const advance = (t: number) => {
    if (t <= latest) return;
    latest = t;
    const bottom = live.arrived(t) - live.size + 1;
    const now = live.settled(t);
    sealed = Math.max(sealed, bottom - 1);
    for (; sealed + block <= now; sealed += block) part(sealed + block, sealed + 1, true, t, false);
    parts.sort((a, b) => b.top - a.top);
    for (let i = parts.length - 1; i >= 0; i -= 1) if (parts[i]!.top < bottom) parts.splice(i, 1);
    // Texts of arrivals that left the window (blocks built since are pruned by the next warm or search).
    if (prunedTo < bottom - 1) {
      for (const r of tail.keys()) if (r < bottom) tail.delete(r);
      prunedTo = bottom - 1;
    }
    warmTo = now;
    warmed = Math.max(warmed, bottom - 1);
    if (BETWEEN_REQUESTS && !warming && warmed < warmTo) {
      warming = true;
      inBackground(warm);
    }
  };
  parts.sort((a, b) => b.top - a.top);

  const firstParts = parts.filter((p) => p.first);
  const firstCount = firstParts.reduce((sum, p) => sum + p.top - p.bottom + 1, 0);
  const share = () => firstParts.reduce((sum, p) => sum + p.build.share() * (p.top - p.bottom + 1), 0) / Math.max(1, firstCount);
  // Once ready, ready for good: later blocks never make a search wait (they are scanned until built).
  let readyOnce = firstParts.length === 0 || !large;
  let catchUp: number | undefined;

  return {
    ready() {
      if (readyOnce) return 1;
      advance(clock());
      const done = share();
      // Built: then ready once the texts of what arrived meanwhile are made (arrivals go on meanwhile).
      if (done >= 1) catchUp ??= warmTo;
      readyOnce = catchUp !== undefined && warmed >= catchUp;
      return readyOnce ? 1 : Math.min(done, 0.99);
    },
    advance,
    search(needle, t) {
      advance(t);
      const top = live.arrived(t);
      const bottom = top - live.size + 1;
      if (large && !readyOnce && firstParts.some((p) => !p.build.index())) return { warming: share() };
      readyOnce = true;
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
        const index = p.build.index() ?? (BETWEEN_REQUESTS && !p.first ? undefined : p.build.complete());
        if (index) {
          const found = index.search(needle);
          // Positions ascend: an arrival part's records then ascend too (read backwards), the seed's descend.
          for (let k = 0; k < found.length; k += 1) {
            const r = p.arrivals ? p.bottom + found[found.length - 1 - k]! : -found[k]!;
            if (r <= high && r >= low && !changing.has(r)) hits.push(r);
          }
        } else scan(high, low);
        cursor = low - 1;
      }
      scan(cursor, bottom);
      // The changing records, as they are at t, merged in (newest first).
      const moving = [...changing].filter((r) => r <= top && r >= bottom && textHolds(text(r, t), needle)).sort((a, b) => b - a);
      return moving.length === 0 ? hits : merge(hits, moving);
    },
  };
}

/** Two lists of record numbers, each newest first, as one. */
function merge(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i]! > b[j]!) ? a[i++]! : b[j++]!);
  return out;
}
