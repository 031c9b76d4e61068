// The claims over time on the head of a listing, judged once its checks are in: reads of the first page at the end
// of the run, each a sighting of a version, are one order of one set of records at a time, and a version left
// behind stops being answered within --max-staleness.
import { setTimeout as delay } from 'node:timers/promises';
import type { OperationContext } from './context.ts';
import { headKey } from './head-read.ts';
import { identities, recordsOf } from '../records.ts';
import { duration } from '../../shared/duration.ts';
import type { Exchange, Finding } from '../types.ts';

/** Groups of reads of the head after the first, when the end's answers differ from the run's first. */
export const END_READS = 3;

/** Groups of reads, at most, while answers stay apart for --max-staleness. */
const LOOKS = 50;

/** What the end of the run showed of the head, against the run's first answer. */
export interface HeadOverTime {
  /** Every read showed the first answer's records, in its order, with its count: one version all run. */
  readonly still: boolean;
  /** stable_order's error, when the reads show what no version of a listing can: see {@link headOverTime}. */
  readonly finding?: Finding;
}

/** How the end of the run reads the head. */
export interface EndReads {
  /** How long a version left behind may still be answered (--max-staleness). */
  readonly maxStalenessMs: number;
  /** The run's deadline: no read after it. */
  readonly stop: AbortSignal;
}

type State = string;

/**
 * Reads the head (the first page, as the run's first request `probe` asked it) three at once at the end of the run,
 * each a sighting of a version; when they differ from `probe`, {@link END_READS} groups more at once after. The same records in
 * more than two orders is a finding: one version has one order, and an edit moves one record at a time. Answers
 * still apart in the last group are read on until they agree, a new answer shows the listing moved
 * on (a replica behind catching up), or `maxStalenessMs` passed with the same answers apart: a version left behind for
 * longer than --max-staleness allows (a replica stuck, replicas that diverged) is a finding naming the answers.
 *
 * @example
 * const end = await headOverTime(context, probe, { maxStalenessMs: 10_000, stop: deadline });
 * if (end.finding) stableOrder.failures.push(end.finding);
 */
export async function headOverTime(context: OperationContext, probe: Exchange, reads: EndReads): Promise<HeadOverTime> {
  if (!recordsOf(probe)) return { still: true };
  const state = (e: Exchange): State => headKey(context, e)!;
  // Together, so that they go on connections of their own: replicas in turn, or pinned to connections, show.
  const group = async () => {
    const got = await Promise.all(context.sendTogether([{ query: {} }, { query: {} }, { query: {} }]));
    return got.every((e) => recordsOf(e)) ? got : undefined;
  };
  const end = await group();
  // No read at the end (the deadline came, the target failed them): nothing says the head stood still.
  if (!end) return { still: false };
  if (end.every((e) => state(e) === state(probe))) return { still: true };
  const groups = [end];
  for (let n = 0; n < END_READS && !reads.stop.aborted; n += 1) {
    const later = await group();
    if (later) groups.push(later);
  }
  const all = [probe, ...groups.flat()];
  const shuffled = inOrders(all);
  if (shuffled) return { still: false, finding: shuffled };
  return { still: false, ...(await apartTooLong(groups.at(-1)!, group, state, reads)) };
}

/** The same set of records in more than two orders over `reads`: no version of a listing explains it. */
function inOrders(reads: readonly Exchange[]): Finding | undefined {
  const order = (e: Exchange) => identities(recordsOf(e)!).join();
  const sets = new Set(reads.map((e) => identities(recordsOf(e)!).sort().join()));
  const orders = new Set(reads.map(order));
  if (sets.size !== 1 || orders.size <= 2) return undefined;
  return {
    severity: 'error',
    message: `the same request gave the same ${recordsOf(reads[0]!)!.length} records in ${orders.size} orders over ${reads.length} reads: a version of the listing has one order, and an edit moves one record at a time`,
    expected: 'one order',
    actual: [...orders].slice(0, 2).join(' | '),
    exchange: reads.at(-1)!,
    absolute: true,
  };
}

/**
 * Answers of one group still apart, read on ({@link LOOKS} times over `maxStalenessMs`) until they agree or a new answer
 * shows the listing moved on; the same answers apart after `maxStalenessMs` are a finding.
 */
async function apartTooLong(
  last: readonly Exchange[],
  group: () => Promise<Exchange[] | undefined>,
  state: (e: Exchange) => State,
  reads: EndReads,
): Promise<{ finding?: Finding }> {
  const apart = new Map(last.map((e) => [state(e), e]));
  if (apart.size < 2) return {};
  const since = performance.now();
  // Often enough that a target whose replicas catch up by requests, not by time, is seen to move on too.
  const wait = Math.max(10, reads.maxStalenessMs / LOOKS);
  while (performance.now() - since < reads.maxStalenessMs && !reads.stop.aborted) {
    await delay(Math.min(wait, Math.max(0, reads.maxStalenessMs - (performance.now() - since))));
    const now = await group();
    if (!now) return {};
    const states = new Set(now.map(state));
    // Agreeing, or showing an answer not seen before: the listing is not stuck apart.
    if (states.size === 1 || [...states].some((s) => !apart.has(s))) return {};
  }
  if (reads.stop.aborted) return {};
  const [a, b] = [...apart.values()].map((e) => identities(recordsOf(e)!));
  const onlyIn = (x: readonly string[], y: readonly string[]) => x.filter((id) => !y.includes(id));
  const describe = (ids: readonly string[], other: readonly string[]) =>
    `${ids.length} records${ids[0] ? ` from ${ids[0]}` : ''}${onlyIn(ids, other).length > 0 ? `, with ${onlyIn(ids, other).slice(0, 3).join(', ')} the other lacks` : ''}`;
  return {
    finding: {
      severity: 'error',
      message: `the same request went back and forth between ${apart.size} answers for more than --max-staleness ${duration(reads.maxStalenessMs)} while no newer one came: one of ${describe(a!, b!)}; one of ${describe(b!, a!)}. A replica behind catches up within the staleness allowed; these never did`,
      expected: `one answer, or answers that move on within --max-staleness ${duration(reads.maxStalenessMs)}`,
      actual: [...apart.keys()].slice(0, 2).join(' | '),
      exchange: last.at(-1)!,
      exchanges: [...apart.values()],
      absolute: true,
    },
  };
}
