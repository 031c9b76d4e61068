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
  /**
   * Takes in a plain page's records (no search) from anywhere in the listing: records a torn read skipped that it
   * shows just above a seam are put in there (see Torn). Nothing it shows breaks the lineage: only reads of the head do.
   */
  mend(records: readonly Json[]): void;
  /** Takes in the records an answer showed: a known one whose content differs from what was read before was edited. */
  observe(records: readonly Json[]): void;
  /**
   * Whether what a search for `term` finds of a record depends on when: it left the listing from its middle during
   * the run (see State.gone), its content was seen to change, or `term` finds it only in fields seen to change in
   * other records (an edit no answer showed may have taken it out). For the empty term: it left. Without a term:
   * it left or was seen to change.
   */
  edited(id: string, term?: string): boolean;
  /** How many records left the listing from its middle during the run (see edited). */
  gone(): number;
  /** How many of a version's records are edited for `term` (see edited). */
  editedIn(version: Version, term?: string): number;
  /**
   * Whether `term` finds a value in a field seen to change: any record may have gained it by an edit no answer
   * showed, so a count for it has no upper bound the run can tell.
   */
  reachesEdits(term: string): boolean;
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
export function createLineage(records: readonly Json[], complete: boolean, matches: Matcher, torn: Torn = {}): Lineage {
  const state: State = {
    ids: [],
    positions: new Map(),
    byId: new Map(),
    changed: new Set(),
    gone: new Set(),
    fields: new Set(),
    found: new Map(),
    editsOnly: new Map(),
    matches,
    torn,
    openBelow: !complete,
  };
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
    mend: (records) => mendIn(state, records),
    observe(records) {
      for (const record of records) if (state.positions.has(identity(record))) note(state, record);
    },
    edited: (id, term) =>
      state.gone.has(id) ||
      (term !== '' && (state.changed.has(id) || (term !== undefined && foundInEditsOnly(state, state.byId.get(id), term)))),
    gone: () => state.gone.size,
    editedIn: (version, term) => editedInVersion(state, version, term),
    reachesEdits: (term) => term !== '' && state.fields.size > 0 && editsOnlyOf(state, term).positions.length > 0,
    head: (answer, full) => headOf(state, answer, full),
    locate: (answerIds, offset) => locateIn(state, answerIds, offset),
  };
  return lineage;
}

/**
 * Where a read of the listing in pages may be torn, and what to tell when a tear is mended: pages answered by
 * versions apart (replicas, records arriving between them) skip records at a page's start, which a later read
 * across that seam shows.
 */
export interface Torn {
  /** The records that began a page of the read (after its first): a record may be missing just above each. */
  readonly seams?: ReadonlySet<string>;
  /** Told when `count` records were put in at position `at`: positions from `at` moved up by `count`. */
  readonly inserted?: (at: number, count: number) => void;
}

/** A lineage's records: identities oldest first, where each stands, the records, those seen to change, and what terms find. */
interface State {
  readonly torn: Torn;
  /** The listing was read only so far (past --max-pages, or up to a repeat): older records lie below its oldest. */
  readonly openBelow: boolean;
  readonly ids: string[];
  readonly positions: Map<string, number>;
  readonly byId: Map<string, Json>;
  readonly changed: Set<string>;
  /**
   * Records a read of the listing skipped between two it showed in their places: gone from the middle (an alert
   * resolved). Versions before they left hold them, those after do not; when is not known.
   */
  readonly gone: Set<string>;
  /** The fields seen to change in a record: an edit of any record may change them. */
  readonly fields: Set<string>;
  /**
   * Which positions each term finds, ascending, made once per term and extended as records arrive; made again when
   * records are put in or one is seen to change.
   */
  readonly found: Map<string, { upTo: number; readonly positions: number[] }>;
  /**
   * Of those, per term, the positions it finds only in fields seen to change (see foundInEditsOnly): `upTo` counts
   * the entries of `found` looked at. Made again whenever `found` is, or a field is first seen to change.
   */
  readonly editsOnly: Map<string, { upTo: number; readonly positions: number[] }>;
  readonly matches: Matcher;
}

/** Notes a record read again: compared with what was read before only when it is another object, never kept as text. */
function note(state: State, record: Json): void {
  const id = identity(record);
  const before = state.byId.get(id);
  if (before !== undefined && before !== record && JSON.stringify(before) !== JSON.stringify(record)) {
    state.changed.add(id);
    for (const field of new Set([...Object.keys(before), ...Object.keys(record)]))
      if (JSON.stringify(before[field]) !== JSON.stringify(record[field])) state.fields.add(field);
    // What terms find in it, and which fields count as changing, are no longer what was worked out.
    state.found.clear();
    state.editsOnly.clear();
  }
  state.byId.set(id, record);
}

/** See Lineage.editedIn. */
function editedInVersion(state: State, version: Version, term: string | undefined): number {
  const inside = (at: number) => at >= version.tail && at < version.top;
  const ids = term === '' ? state.gone : new Set([...state.changed, ...state.gone]);
  const changed = [...ids].map((id) => state.positions.get(id)!).filter(inside);
  if (term === undefined || term === '' || state.fields.size === 0) return changed.length;
  const only = editsOnlyOf(state, term);
  const [from, to] = [lowerBound(only.positions, Math.max(0, version.tail)), lowerBound(only.positions, version.top)];
  const alsoOnly = (at: number) => only.positions[lowerBound(only.positions, at)] === at;
  return changed.length + (to - from) - changed.filter(alsoOnly).length;
}

/** Whether `term` finds `record` only in fields seen to change (without them, it would not find it). */
function foundInEditsOnly(state: State, record: Json | undefined, term: string): boolean {
  if (!record || term === '' || state.fields.size === 0 || !state.matches(record, term)) return false;
  const rest = Object.fromEntries(Object.entries(record).filter(([field]) => !state.fields.has(field)));
  return !state.matches(rest, term);
}

/** The positions `term` finds only in fields seen to change, ascending, worked out once and extended as records arrive. */
function editsOnlyOf(state: State, term: string): { readonly positions: readonly number[] } {
  const { all } = inWindow(state, { top: state.ids.length, tail: 0 }, term);
  const entry = entryOf(state.editsOnly, term);
  for (; entry.upTo < all.length; entry.upTo += 1) {
    const at = all[entry.upTo]!;
    if (foundInEditsOnly(state, state.byId.get(state.ids[at]!), term)) entry.positions.push(at);
  }
  return entry;
}

/** The positions worked out so far for `term` in `cache` (found or editsOnly), an empty entry the first time. */
function entryOf(cache: Map<string, { upTo: number; readonly positions: number[] }>, term: string) {
  const entry = cache.get(term) ?? { upTo: 0, positions: [] };
  cache.set(term, entry);
  return entry;
}

/** A record that arrived: at the end of the lineage. */
function add(state: State, record: Json): void {
  state.positions.set(identity(record), state.ids.length);
  state.ids.push(identity(record));
  note(state, record);
}

/** The positions of the records `term` finds, and where a version's lie among them (`from` up to `to`, exclusive). */
function inWindow(state: State, version: Version, term: string) {
  const entry = entryOf(state.found, term);
  for (; entry.upTo < state.ids.length; entry.upTo += 1)
    if (term === '' || state.matches(state.byId.get(state.ids[entry.upTo]!)!, term)) entry.positions.push(entry.upTo);
  const all = entry.positions;
  return { all, from: lowerBound(all, Math.max(0, version.tail)), to: lowerBound(all, version.top) };
}

/** See Lineage.mend. */
function mendIn(state: State, records: readonly Json[]): void {
  const known = records.findIndex((record) => state.positions.has(identity(record)));
  if (known < 0) return;
  const seam = identity(records[known]!);
  if (known > 0 && state.torn.seams?.has(seam)) insert(state, state.positions.get(seam)! + 1, records.slice(0, known));
  follows(state, records.slice(known), state.positions.get(seam)!);
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
  // Records it skips are gone only if the whole of it follows: a read in another order is no window at all.
  const skipped: string[] = [];
  if (!follows(state, answer.slice(known), at, skipped)) return undefined;
  for (const id of skipped) state.gone.add(id);
  for (let i = known - 1; i >= 0; i -= 1) add(state, answer[i]!);
  for (const record of answer.slice(known)) note(state, record);
  // Where it stands now: records a torn read skipped may have been put in below it.
  return state.positions.get(answerIds[known]!)! + 1 + known;
}

/**
 * Whether `answer` (newest first) is the lineage's records from position `at` down, records the lineage lacks
 * allowed only just above a seam of a torn read (see Torn): those are put in where the answer shows them. A read of
 * the head may skip known records (given `skipped`, which gathers them): they left the listing (see State.gone); a
 * page read from elsewhere, which a broken offset may shift, says nothing of that.
 */
function follows(state: State, answer: readonly Json[], at: number, skipped?: string[]): boolean {
  let pos = at;
  for (let i = 0; i < answer.length; ) {
    const id = identity(answer[i]!);
    // Past the oldest record read of a listing not read to its end: older records, not known to the lineage.
    if (pos < 0 && state.openBelow) return true;
    if (pos >= 0 && state.ids[pos] === id) [pos, i] = [pos - 1, i + 1];
    else if (skipped && (state.positions.get(id) ?? pos) < pos) {
      // A known record further down: those between left the listing from its middle.
      for (const left of range(state.positions.get(id)! + 1, pos + 1)) skipped.push(state.ids[left]!);
      pos = state.positions.get(id)!;
    } else if (pos >= 0 && !state.positions.has(id) && state.torn.seams?.has(state.ids[pos]!)) {
      let end = i;
      while (end < answer.length && !state.positions.has(identity(answer[end]!))) end += 1;
      // Missing records the answer ends on are not placed: nothing below them shows where they stand.
      if (end === answer.length) return true;
      if (identity(answer[end]!) !== state.ids[pos]) return false;
      insert(state, pos + 1, answer.slice(i, end));
      i = end;
    } else return false;
  }
  return true;
}

/** Puts `records` (newest first) in at position `at`: a torn read skipped them. */
function insert(state: State, at: number, records: readonly Json[]): void {
  const ids = records.map(identity).reverse();
  state.ids.splice(at, 0, ...ids);
  for (let p = at; p < state.ids.length; p += 1) state.positions.set(state.ids[p]!, p);
  for (const record of records) state.byId.set(identity(record), record);
  state.found.clear();
  state.editsOnly.clear();
  state.torn.inserted?.(at, ids.length);
}

/** The numbers `from` up to `to`, exclusive. */
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

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
