import { setTimeout as delay } from 'node:timers/promises';
import { firstPage, largestPageSize, pageQuery, countHeader } from '../model/listing-query.ts';
import { identities, recordsOf } from '../records.ts';
import type { Finding, Exchange } from '../types.ts';
import type { OperationContext } from '../model/context.ts';
import { sendTogether } from './at-once.ts';

/** Re-reads of the first page when its answers differ, to tell data that lives from answers that are broken. */
export const REREADS = 3;

/** What the first page did over a run. */
export type Change =
  | { readonly kind: 'none' }
  /** The same records in another order on re-reads of one request: the order is unstable, the data is not changing. */
  | { readonly kind: 'shuffled'; readonly finding: Finding }
  /** Records came or went: findings that compare answers read at different moments may be the change's doing. */
  | { readonly kind: 'changed'; readonly why: string }
  /**
   * The answers went back and forth between versions a few records apart at the head: replicas behind a load
   * balancer, one behind the other. No pair of requests can be known to come from one version.
   */
  | { readonly kind: 'replicas'; readonly why: string };

const order = (exchange: Exchange) => identities(recordsOf(exchange)!).join();
const set = (exchange: Exchange) => identities(recordsOf(exchange)!).sort().join();

/**
 * The first page (at the default size), as the run's first request read it, against three reads sent together at
 * the end of the run. When they differ, it is read {@link REREADS} times more (three at once each), `intervalMs` apart: the same
 * set of records in a new order each time is `shuffled` (stable_order's error, however the rest of the data
 * behaves), and so are answers going back and forth that records arriving cannot explain; back and forth
 * between versions a few records apart at the head is `replicas`; other records, or another count, `changed`.
 *
 * @example
 * const change = await observeChange(context, probe, 1_000);
 * if (change.kind === 'shuffled') report(change.finding);
 */
export async function observeChange(
  context: OperationContext,
  probe: Exchange,
  intervalMs: number,
  /** The records the run held at its start (see {@link heldAtStart}); by default the probe's. */
  known: ReadonlySet<string> = new Set(identities(recordsOf(probe) ?? [])),
): Promise<Change> {
  if (!recordsOf(probe)) return { kind: 'none' };
  // Three reads at the end, and at each re-read: answers that alternate request by request (replicas taking
  // turns) show as a first and third read that agree around a second that differs.
  const three = async () => {
    // Together, so that they go on connections of their own: a balancer pinning connections shows its versions.
    const got = await sendTogether(context, [{ query: {} }, { query: {} }, { query: {} }]);
    return got.every((e) => recordsOf(e)) ? got : undefined;
  };
  const end = await three();
  if (!end) return { kind: 'none' };
  const count = (e: Exchange) => countHeader(context, e);
  const key = (e: Exchange) => `${order(e)}|${count(e)}`;
  if (end.every((e) => key(e) === key(probe))) return { kind: 'none' };
  const groups = [end];
  for (let n = 0; n < REREADS; n += 1) {
    await delay(intervalMs);
    const later = await three();
    if (later) groups.push(later);
  }
  const reads = [probe, ...groups.flat()];
  const turns = groups.some(([x, y, z]) => key(x!) === key(z!) && key(x!) !== key(y!));
  const sets = new Set(reads.map(set));
  const orders = new Set(reads.map(order));
  if (sets.size === 1 && orders.size > 2) {
    return {
      kind: 'shuffled',
      finding: {
        severity: 'error',
        message: `the same request gave the same ${recordsOf(probe)!.length} records in ${orders.size} orders over ${reads.length} reads (${REREADS} of them ${intervalMs / 1000} s apart)`,
        expected: 'one order',
        actual: [...orders].slice(0, 2).join(' | '),
        exchange: reads.at(-1)!,
        absolute: true,
      },
    };
  }
  const states = reads.map(order);
  // A version seen again after another one, or a record gone from one read and back in a later one: the
  // target serves several versions at once (growth alone only adds records at the head, and pushes others out).
  const held = reads.map((read) => new Set(identities(recordsOf(read)!)));
  const returned = held.some((ids, k) =>
    [...ids].some((id) => held.slice(0, k).some((h, i) => h.has(id) && held.slice(i + 1, k).some((g) => !g.has(id)))),
  );
  const back = turns || returned || states.some((state, i) => i > 1 && states.slice(0, i - 1).includes(state) && states[i - 1] !== state);
  if (back) return backAndForth(context, reads, states, known);
  if (sets.size > 1) return { kind: 'changed', why: 'the first page held other records at the end of the run than at its start' };
  if (orders.size > 1) return { kind: 'changed', why: 'the first page changed order once during the run' };
  return { kind: 'changed', why: `X-Total-Count went from ${count(probe)} to ${count(end[0]!)} during the run` };
}

/**
 * The records the run held at its start: the listing as its checks first read it (when read with records),
 * else the first page as the run's first request read it.
 *
 * @example
 * const known = await heldAtStart(context, probe);
 */
export async function heldAtStart(context: OperationContext, probe: Exchange): Promise<ReadonlySet<string>> {
  const listing = await context.listingRead();
  return new Set(identities(listing && listing.records.length > 0 ? listing.records : (recordsOf(probe) ?? [])));
}

/**
 * Answers that went back and forth between versions: replicas behind a load balancer when the versions seen at
 * the end are a few records apart at the head: they share records and what one holds that the other does not
 * arrived during the run (the run did not hold it at its start: a replica a record behind on data that stood
 * still is stuck, not lagging), or all the records of the larger arrived during the run; and either the answer
 * the run started with is not among them (a replica is behind in time: the head moved on) or each connection keeps
 * to one version (a balancer pinning connections); or, pinned so, versions that share records a head apart at all
 * (a replica stuck behind is staleness, not another order).
 * Anything else (a version with none of the records of a larger one, say) is stable_order's error, which no
 * legitimate variation explains.
 */
function backAndForth(
  context: OperationContext,
  reads: readonly Exchange[],
  states: readonly string[],
  known: ReadonlySet<string>,
): Change {
  // The probe shows the start of the run: how far the end's versions are from it is time, not replicas.
  const ends = [...new Set(states.slice(1))].map((state) => (state === '' ? [] : state.split(',')));
  const shifted = ends.every((a) => ends.every((b) => a === b || headShifted(a, b)));
  const arrived = new Set(reads.flatMap((read) => identities(recordsOf(read)!)).filter((id) => !known.has(id))).size;
  // A version's size: its count when sent, else the records it shows.
  const size = (version: readonly string[]) => {
    const read = reads.find((r) => order(r) === version.join());
    const total = read ? Number(countHeader(context, read)) : Number.NaN;
    return Number.isNaN(total) ? version.length : total;
  };
  // Records one version holds and the other does not; at the head of the newer one, they arrived during the run.
  const extra = (a: readonly string[], b: readonly string[]) => a.filter((id) => !b.includes(id));
  const arrivedAll = (ids: readonly string[]) => ids.every((id) => !known.has(id));
  const shares = (a: readonly string[], b: readonly string[]) => a.some((id) => b.includes(id));
  const near = (a: readonly string[], b: readonly string[]) =>
    (shares(a, b) && (arrivedAll(extra(a, b)) || arrivedAll(extra(b, a)))) || Math.max(size(a), size(b)) <= arrived;
  const apart = Math.max(0, ...ends.flatMap((a) => ends.map((b) => a.filter((id) => !b.includes(id)).length)));
  // A replica is behind in time: the answer of the run's start is not one of the end's (the head moved on); or
  // each connection keeps to one version, as a layer-4 balancer pinning connections to replicas does.
  const moved = !states.slice(1).includes(states[0]!);
  const pinned = pinnedByConnection(reads, states);
  // Each connection keeping to one of versions that share records, a head apart: replicas pinned by connection,
  // whether one is behind in time or stuck (how far behind is the staleness the versions rule measures).
  const overlap = ends.every((a) => ends.every((b) => a === b || shares(a, b)));
  const replicas = (moved || pinned) && ends.every((a) => ends.every((b) => a === b || near(a, b)));
  if (shifted && (replicas || (pinned && overlap))) {
    return {
      kind: 'replicas',
      why: `the first page went back and forth between ${ends.length} versions ${apart} record${apart === 1 ? '' : 's'} apart (${arrived} arrived during the run), as replicas behind a load balancer do`,
    };
  }
  return {
    kind: 'shuffled',
    finding: {
      severity: 'error',
      message: `the same request went back and forth between ${ends.length} answers over ${reads.length} reads, ${shifted ? `one of ${Math.max(...ends.map(size))} records and one sharing none of them, more than the ${arrived} that arrived during the run` : 'which records arriving or leaving cannot explain'}`,
      expected: 'one answer, or answers that differ only by records at the head (data that changed, replicas behind)',
      actual: [...new Set(states)].slice(0, 2).join(' | '),
      exchange: reads.at(-1)!,
      absolute: true,
    },
  };
}

/** Whether the reads came on two connections or more, and each connection always answered with one version. */
function pinnedByConnection(reads: readonly Exchange[], states: readonly string[]): boolean {
  const versions = new Map<number, string>();
  for (const [i, read] of reads.entries()) {
    const connection = read.response?.connection;
    if (connection === undefined) return false;
    if ((versions.get(connection) ?? states[i]) !== states[i]) return false;
    versions.set(connection, states[i]!);
  }
  return new Set(versions.values()).size > 1;
}

/**
 * Whether the data stood still while `during` ran: the first page at the largest size, read twice at once
 * just before and just after (twice, so that replicas taking turns show), holds the same records in the same
 * order (and the same count, when sent) every time.
 */
export async function stillDuring<T>(context: OperationContext, during: () => Promise<T>): Promise<{ result: T; still: boolean }> {
  const query = pageQuery(context, firstPage(context.parameters), largestPageSize(context.parameters));
  // Each pair together: replicas taking turns answer one request each.
  const pair = () => sendTogether(context, [{ query }, { query }]);
  const reads = await pair();
  const result = await during();
  reads.push(...(await pair()));
  const key = (e: Exchange) => (recordsOf(e) ? `${order(e)}|${countHeader(context, e)}` : undefined);
  const keys = reads.map(key);
  return { result, still: keys[0] !== undefined && keys.every((k) => k === keys[0]) };
}

/**
 * Whether two answers to one request are one listing at two moments: the records both hold keep their order,
 * and the others lie at the head (arrived) or the tail (pushed past the page, or arrived in the other).
 */
export function headShifted(a: readonly string[], b: readonly string[]): boolean {
  const inB = new Set(b);
  const inA = new Set(a);
  const common = a.filter((id) => inB.has(id));
  if (common.join() !== b.filter((id) => inA.has(id)).join()) return false;
  const outside = (list: readonly string[], other: Set<string>) => {
    const first = list.findIndex((id) => other.has(id));
    const last = list.length - 1 - [...list].reverse().findIndex((id) => other.has(id));
    return first < 0 || list.slice(first, last + 1).every((id) => other.has(id));
  };
  return outside(a, inB) && outside(b, inA);
}
