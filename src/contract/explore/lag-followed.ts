// A search index's lag, followed: records arriving searched for until the search finds them.
import { sleep } from '../client/sleep.ts';
import { identity, recordsOf } from '../records.ts';
import type { OperationContext } from '../model/context.ts';
import { headQuery, searchHeadQuery } from '../model/head-read.ts';
import { termOnlyIn } from '../material/search-term.ts';
import type { Exchange } from '../types.ts';

/** Rounds of following at most: a read of the head, then a search for each record not found yet. */
const MAX_ROUNDS = 40;
/** Shortest pause between rounds: a target 50-150 ms away is never asked faster. */
const MIN_PAUSE_MS = 50;
/** Records found at their first search, none missed, that end a look for a lag no search saw. */
const PROBE_HITS = 4;

/** A record followed: the term only it holds, when it arrived (the middle of the reads that bound it), when last missed. */
interface Followed {
  readonly term: string;
  readonly arrived: number;
  missed?: number;
}

/**
 * The lag of a search index, measured by following records as they arrive. A search that lands behind the index
 * measures only how long that one record waited, which may be any part of the refresh interval; the record arriving
 * just after a refresh waits the longest. So, once a lag was measured, until records were followed for three times
 * the longest lag (at most --max-staleness, at most 40 rounds a tenth of the lag apart), each round reads the head and
 * searches for every record that arrived since the follow began and is not found yet, by a value only it holds. With
 * no lag measured but records arriving during the run, the follow looks for one: the newest record of each round
 * only (a search may take seconds), until PROBE_HITS were found at their first search (no lag to see), or one was
 * missed, which makes it a follow as above. A record's wait runs from the middle of the two reads of the head that
 * bound its arrival to the middle of the last search that missed it and the first that found it; the longest is noted
 * as the index's lag, once a search missed a record or a lag was measured before. Nothing is judged: a record never
 * found is the rule's to judge (see newestSearched).
 *
 * @example
 * await lagFollowed(context); // after newestSearched: the consistency section's search staleness, refined
 */
export async function lagFollowed(context: OperationContext): Promise<void> {
  const { history, maxStalenessMs } = context.versions;
  const lag = history.indexLag();
  const seen = history.seen();
  if (lag === 0 && (!seen || seen.newest === seen.oldest)) return;
  const pause = Math.max(MIN_PAUSE_MS, lag / 10);
  let previous = await context.send(headQuery(context));
  const start = previous.span?.answered;
  const known = new Set((recordsOf(previous) ?? []).map(identity));
  const followed = new Map<string, Followed>();
  const wait = { longest: 0, missed: lag > 0, hits: 0 };
  for (let round = 0; round < MAX_ROUNDS && start !== undefined; round += 1) {
    await sleep(pause, undefined);
    const head = await context.send(headQuery(context));
    const records = recordsOf(head);
    if (!records || !head.span || !previous.span) return;
    // Looking for a lag: the newest arrival only. Records come newest first.
    const arrived = records.filter((r) => !known.has(identity(r))).slice(0, wait.missed ? undefined : 1);
    for (const record of records) known.add(identity(record));
    for (const record of arrived) {
      const term = termOnlyIn(context, record, records);
      if (term !== undefined) followed.set(identity(record), { term, arrived: (previous.span.sent + head.span.answered) / 2 });
    }
    previous = head;
    const found = await searchFollowed(context, followed);
    wait.longest = Math.max(wait.longest, found.longest);
    wait.missed ||= found.missed;
    wait.hits += found.atFirst;
    const elapsed = head.span.answered - start;
    if (!wait.missed && wait.hits >= PROBE_HITS) return;
    if (elapsed >= maxStalenessMs || (elapsed >= 3 * Math.max(lag, wait.longest) && followed.size === 0 && wait.longest > 0)) break;
  }
  if (wait.missed && wait.longest > 0) history.noteSearchLag(wait.longest);
}

/**
 * Each record followed searched for once, at once: the longest wait of those found (dropped from `followed`), whether
 * a search missed one, and how many were found at their first search.
 */
async function searchFollowed(
  context: OperationContext,
  followed: Map<string, Followed>,
): Promise<{ longest: number; missed: boolean; atFirst: number }> {
  const asked = [...followed].map(([id, f]) => ({ id, f, query: searchHeadQuery(context, f.term) }));
  const answers: Exchange[] = await Promise.all(context.sendTogether(asked.map(({ query }) => ({ query }))));
  const got = { longest: 0, missed: false, atFirst: 0 };
  for (const [i, { id, f }] of asked.entries()) {
    const answer = answers[i]!;
    const records = recordsOf(answer);
    if (!records || !answer.span) continue;
    if (!records.some((r) => identity(r) === id)) {
      f.missed = answer.span.sent;
      got.missed = true;
      continue;
    }
    followed.delete(id);
    if (f.missed === undefined) got.atFirst += 1;
    const found = ((f.missed ?? f.arrived) + answer.span.answered) / 2;
    got.longest = Math.max(got.longest, found - f.arrived);
  }
  return got;
}
