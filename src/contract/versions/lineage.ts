// A listing's records in the order they arrived, as the run's reads showed them: every version of the listing the
// run saw is a window of it (records arrive at the head, a window slides off the tail, replicas and indexes behind
// show older windows).
import { identity } from '../records.ts';

type Json = Record<string, unknown>;

/** Whether a search for `term` finds `record` (the spec's assumed rule, given by the run). */
export type Matcher = (record: Json, term: string) => boolean;

/**
 * A version of the listing: the records of the lineage at positions `tail`..`top - 1`, newest (`top - 1`) first.
 * `tail` below 0 means the listing goes on past what the run read of it (a listing longer than --max-pages).
 */
export interface Version {
  readonly top: number;
  readonly tail: number;
}

/** The records of one listing, oldest first, and what a version of it holds. */
export interface Lineage {
  /** Identities, oldest first: a record that arrives is added at the end. */
  readonly ids: readonly string[];
  /** Whether the oldest record known is the listing's last as first read (it was read to its end). */
  readonly complete: boolean;
  position(id: string): number | undefined;
  /**
   * The version's records `offset`..`offset + size - 1` (newest first), or undefined when they reach past what the
   * lineage knows (a listing longer than --max-pages).
   */
  slice(version: Version, offset: number, size: number): readonly string[] | undefined;
  /** The version's records that `term` finds, `offset`..`offset + size - 1` of them; undefined as for slice. */
  matches(version: Version, term: string, offset: number, size: number): readonly string[] | undefined;
  /** How many of the version's records `term` finds; undefined when it holds records the run did not read. */
  count(version: Version, term: string): number | undefined;
  /** Whether a record's content was seen to change during the run (what a search finds of it depends on when). */
  edited(id: string): boolean;
  /** How many of a version's records were seen to change during the run. */
  editedIn(version: Version): number;
  /**
   * Takes in an answer for the listing's head (page 1, no search): the top of the version it shows, the records
   * it shows that the lineage lacked added at the end. Undefined when the answer is no window of the lineage;
   * `ahead` when it is a `full` page showing only records the lineage lacks (more arrived since than a page
   * holds): they cannot be placed yet, and say nothing against the lineage. A page that ends before any known
   * record says the known ones are gone.
   */
  head(records: readonly Json[], full?: boolean): number | 'ahead' | undefined;
  /** The top of the version whose records `offset`.. an answer shows; undefined when it is no window of the lineage. */
  locate(ids: readonly string[], offset: number): number | undefined;
}

/**
 * The lineage of a listing first read as `records` (newest first, as the listing comes): `complete` when read to its end.
 *
 * @example
 * const lineage = createLineage(listing.records, listing.complete, containsTerm);
 * lineage.head(recordsOf(firstPage)!); // the top of the version the first page shows
 */
export function createLineage(records: readonly Json[], complete: boolean, matches: Matcher): Lineage {
  const state: State = { ids: [], positions: new Map(), byId: new Map(), changed: new Set(), found: new Map(), matches };
  for (let i = records.length - 1; i >= 0; i -= 1) add(state, records[i]!);
  const { ids } = state;
  const lineage: Lineage = {
    ids,
    complete,
    position: (id) => state.positions.get(id),
    slice(version, offset, size) {
      const out: string[] = [];
      for (let at = version.top - 1 - offset; out.length < size && at >= version.tail; at -= 1) {
        if (at < 0) return undefined;
        out.push(ids[at]!);
      }
      return out;
    },
    matches(version, term, offset, size) {
      const { all, from, to } = inWindow(state, version, term);
      // Past what was read, records the run never saw may be found.
      if (version.tail < 0 && to - from < offset + size) return undefined;
      const out: string[] = [];
      for (let at = to - 1 - offset; out.length < size && at >= from; at -= 1) out.push(ids[all[at]!]!);
      return out;
    },
    count(version, term) {
      if (term === '') return version.top - version.tail;
      if (version.tail < 0) return undefined;
      const { from, to } = inWindow(state, version, term);
      return to - from;
    },
    edited: (id) => state.changed.has(id),
    editedIn(version) {
      let n = 0;
      for (const id of state.changed) {
        const at = state.positions.get(id)!;
        if (at >= version.tail && at < version.top) n += 1;
      }
      return n;
    },
    head: (answer, full) => headOf(state, answer, full),
    locate: (answerIds, offset) => locateIn(state, answerIds, offset),
  };
  return lineage;
}

/** A lineage's records: identities oldest first, where each stands, the records, those seen to change, and what terms find. */
interface State {
  readonly ids: string[];
  readonly positions: Map<string, number>;
  readonly byId: Map<string, Json>;
  readonly changed: Set<string>;
  /** Which positions each term finds, ascending, made once per term and extended as records arrive. */
  readonly found: Map<string, { upTo: number; readonly positions: number[] }>;
  readonly matches: Matcher;
}

/** Notes a record read again: compared with what was read before only when it is another object, never kept as text. */
function note(state: State, record: Json): void {
  const id = identity(record);
  const before = state.byId.get(id);
  if (before !== undefined && before !== record && JSON.stringify(before) !== JSON.stringify(record)) state.changed.add(id);
  state.byId.set(id, record);
}

/** A record that arrived: at the end of the lineage. */
function add(state: State, record: Json): void {
  state.positions.set(identity(record), state.ids.length);
  state.ids.push(identity(record));
  note(state, record);
}

/** The positions of the records `term` finds, and where a version's lie among them (`from` up to `to`, exclusive). */
function inWindow(state: State, version: Version, term: string) {
  let entry = state.found.get(term);
  if (!entry) {
    entry = { upTo: 0, positions: [] };
    state.found.set(term, entry);
  }
  for (; entry.upTo < state.ids.length; entry.upTo += 1)
    if (term === '' || state.matches(state.byId.get(state.ids[entry.upTo]!)!, term)) entry.positions.push(entry.upTo);
  const all = entry.positions;
  return { all, from: lowerBound(all, Math.max(0, version.tail)), to: lowerBound(all, version.top) };
}

/** See Lineage.locate. */
function locateIn(state: State, answerIds: readonly string[], offset: number): number | undefined {
  if (answerIds.length === 0) return undefined;
  const at = state.positions.get(answerIds[0]!);
  if (at === undefined) return undefined;
  for (let i = 1; i < answerIds.length; i += 1) if (state.ids[at - i] !== answerIds[i]) return undefined;
  return at + 1 + offset;
}

/** See Lineage.head. */
function headOf(state: State, answer: readonly Json[], full = false): number | 'ahead' | undefined {
  const answerIds = answer.map(identity);
  const known = answerIds.findIndex((id) => state.positions.has(id));
  if (known < 0) {
    if (answer.length === 0) return undefined;
    if (state.ids.length > 0) return full ? 'ahead' : undefined;
    for (let i = answer.length - 1; i >= 0; i -= 1) add(state, answer[i]!);
    return state.ids.length;
  }
  const at = state.positions.get(answerIds[known]!)!;
  // Records the lineage lacks may only stand above its newest: they arrived.
  if (known > 0 && at !== state.ids.length - 1) return undefined;
  if (locateIn(state, answerIds.slice(known), 0) !== at + 1) return undefined;
  for (let i = known - 1; i >= 0; i -= 1) add(state, answer[i]!);
  for (const record of answer.slice(known)) note(state, record);
  return at + 1 + known;
}

/** The first index of sorted `values` holding a value >= `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let [lo, hi] = [0, values.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
