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

/** A record followed: the term only it holds, when it arrived (the middle of the reads that bound it), when last missed. */
interface Followed {
  readonly term: string;
  readonly arrived: number;
  missed?: number;
}

/**
 * The lag of a search index the run saw behind its records, measured by following records as they arrive. A search
 * that lands behind the index measures only how long that one record waited, which may be any part of the refresh
 * interval; the record arriving just after a refresh waits the longest. So, once a lag was measured, until records
 * were followed for three times the longest lag (at most --max-staleness, at most 40 rounds a tenth of the lag
 * apart), each round reads the head and searches for every record that arrived since the follow began and is not
 * found yet, by a value only it holds. A record's wait runs from the middle of the two reads of the head that bound
 * its arrival to the middle of the last search that missed it and the first that found it; the longest is noted as
 * the index's lag. Nothing is judged: a record never found is the rule's to judge (see newestSearched).
 *
 * @example
 * await lagFollowed(context); // after newestSearched: the consistency section's search staleness, refined
 */
export async function lagFollowed(context: OperationContext): Promise<void> {
  const { history, maxStalenessMs } = context.versions;
  const lag = history.indexLag();
  if (lag === 0) return;
  const pause = Math.max(MIN_PAUSE_MS, lag / 10);
  let previous = await context.send(headQuery(context));
  const start = previous.span?.answered;
  const seen = new Set((recordsOf(previous) ?? []).map(identity));
  const followed = new Map<string, Followed>();
  let longest = 0;
  for (let round = 0; round < MAX_ROUNDS && start !== undefined; round += 1) {
    await sleep(pause, undefined);
    const head = await context.send(headQuery(context));
    const records = recordsOf(head);
    if (!records || !head.span || !previous.span) return;
    for (const record of records.filter((r) => !seen.has(identity(r)))) {
      seen.add(identity(record));
      const term = termOnlyIn(context, record, records);
      if (term !== undefined) followed.set(identity(record), { term, arrived: (previous.span.sent + head.span.answered) / 2 });
    }
    previous = head;
    longest = Math.max(longest, await searchFollowed(context, followed));
    const elapsed = head.span.answered - start;
    if (elapsed >= maxStalenessMs || (elapsed >= 3 * Math.max(lag, longest) && followed.size === 0 && longest > 0)) break;
  }
  if (longest > 0) history.noteSearchLag(longest);
}

/** Each record followed searched for once, at once: the longest wait of those found (dropped from `followed`). */
async function searchFollowed(context: OperationContext, followed: Map<string, Followed>): Promise<number> {
  const asked = [...followed].map(([id, f]) => ({ id, f, query: searchHeadQuery(context, f.term) }));
  const answers: Exchange[] = await Promise.all(context.sendTogether(asked.map(({ query }) => ({ query }))));
  let longest = 0;
  for (const [i, { id, f }] of asked.entries()) {
    const answer = answers[i]!;
    const records = recordsOf(answer);
    if (!records || !answer.span) continue;
    if (!records.some((r) => identity(r) === id)) {
      f.missed = answer.span.sent;
      continue;
    }
    followed.delete(id);
    const found = ((f.missed ?? f.arrived) + answer.span.answered) / 2;
    longest = Math.max(longest, found - f.arrived);
  }
  return longest;
}
