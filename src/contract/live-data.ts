import { identities, pageQuery, recordsOf, type Finding, type OperationContext } from './check.ts';
import type { Exchange } from './types.ts';

/** Re-reads of the first page when its answers differ, to tell data that lives from answers that are broken. */
export const REREADS = 3;

/** What the first page did over a run. */
export type Change =
  | { readonly kind: 'none' }
  /** The same records in another order on re-reads of one request: the order is unstable, the data is not changing. */
  | { readonly kind: 'shuffled'; readonly finding: Finding }
  /** Records came or went: findings that compare answers read at different moments may be the change's doing. */
  | { readonly kind: 'changed'; readonly why: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const order = (exchange: Exchange) => identities(recordsOf(exchange)!).join();
const set = (exchange: Exchange) => identities(recordsOf(exchange)!).sort().join();

/**
 * The first page (at the default size), as the run's first request read it, against what it is at the end
 * of the run. When they differ, it is read {@link REREADS} times more, `intervalMs` apart: the same set of
 * records in a new order each time is `shuffled` (stable_order's error, however the rest of the data
 * behaves); other records, or another count, is `changed`.
 *
 * @example
 * const change = await observeChange(context, probe, 1_000);
 * if (change.kind === 'shuffled') report(change.finding);
 */
export async function observeChange(context: OperationContext, probe: Exchange, intervalMs: number): Promise<Change> {
  if (!recordsOf(probe)) return { kind: 'none' };
  const end = await context.send({});
  if (!recordsOf(end)) return { kind: 'none' };
  const count = (e: Exchange) => e.response?.headers['x-total-count'];
  if (order(probe) === order(end) && count(probe) === count(end)) return { kind: 'none' };
  const reads = [probe, end];
  for (let n = 0; n < REREADS; n += 1) {
    await sleep(intervalMs);
    const again = await context.send({});
    if (recordsOf(again)) reads.push(again);
  }
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
  if (sets.size > 1) return { kind: 'changed', why: 'the first page held other records at the end of the run than at its start' };
  if (orders.size > 1) return { kind: 'changed', why: 'the first page changed order once during the run' };
  return { kind: 'changed', why: `X-Total-Count went from ${count(probe)} to ${count(end)} during the run` };
}

/**
 * Whether the data stood still while `during` ran: the first page at the largest size, read just before and
 * just after, holds the same records in the same order (and the same count, when sent).
 */
export async function stillDuring<T>(context: OperationContext, during: () => Promise<T>): Promise<{ result: T; still: boolean }> {
  const max = Number(context.parameters.pageSize.schema.maximum ?? context.parameters.pageSize.schema.default);
  const query = pageQuery(context, 1, max);
  const before = await context.send(query);
  const result = await during();
  const after = await context.send(query);
  const same =
    recordsOf(before) !== undefined &&
    recordsOf(after) !== undefined &&
    order(before) === order(after) &&
    before.response?.headers['x-total-count'] === after.response?.headers['x-total-count'];
  return { result, still: same };
}
