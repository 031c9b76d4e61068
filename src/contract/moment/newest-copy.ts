import { identities, recordsOf } from '../records.ts';
import type { HttpClient, SendOptions } from '../client/http-client.ts';
import type { Exchange } from '../types.ts';
import type { OrderKey } from '../../spec/collection-spec.ts';
import { compareRecords } from '../../spec/record-order.ts';

/** Copies of each plain listing request a {@link newestCopy} client sends at once. */
export const COPIES = 3;

const discarded = new WeakMap<Exchange, readonly Exchange[]>();

/** The copies sent with `exchange` by a {@link newestCopy} client and not kept (none for any other exchange). */
export const otherCopies = (exchange: Exchange): readonly Exchange[] => discarded.get(exchange) ?? [];

/** How a listing's answers are told apart in time: its count header, and the order its records come in. */
export interface Versions {
  readonly countHeader: string | undefined;
  /** The listing's `x-order`: records arrive at its head. */
  readonly order: readonly OrderKey[];
}

/**
 * Whether answer `a` to a request shows the listing at a later moment than `b` (more records arrived at the
 * head): a record both hold sits further down in `a`; with none in common, a larger count tells, then (a window
 * of constant size, a page of one record) a first record that comes earlier in the listing's order (what stood
 * there has moved down), then more records.
 *
 * @example
 * isNewer(answerNow, answerBefore, { countHeader: 'x-total-count', order: operation.order }); // true
 */
export function isNewer(a: Exchange, b: Exchange, versions: Versions): boolean {
  const [recordsA, recordsB] = [recordsOf(a)!, recordsOf(b)!];
  const [ra, rb] = [identities(recordsA), identities(recordsB)];
  const shared = ra.find((id) => rb.includes(id));
  if (shared !== undefined && ra.indexOf(shared) !== rb.indexOf(shared)) return ra.indexOf(shared) > rb.indexOf(shared);
  const { countHeader, order } = versions;
  const count = (e: Exchange) => Number((countHeader && e.response?.headers[countHeader]) ?? Number.NaN);
  if (count(a) !== count(b) && !Number.isNaN(count(a) - count(b))) return count(a) > count(b);
  const first = shared === undefined && recordsA[0] && recordsB[0] ? compareRecords(order, recordsA[0], recordsB[0]) : 0;
  if (first !== 0) return first < 0;
  return ra.length > rb.length;
}

/**
 * A client for a target served by replicas in turn, some behind the others: each plain listing request (no
 * method or headers of its own, whatever its priority) is sent {@link COPIES} times at once, so that every
 * replica likely answers it, and the answer of the newest version is kept. Requests so answered come from one
 * version (the newest), as from one server whose data grows. An answer that is not a 200 array is kept as it
 * is, to be judged.
 *
 * @example
 * const newest = newestCopy(client, { countHeader: operation.paging.count, order: operation.order });
 */
export function newestCopy(client: HttpClient, versions: Versions): HttpClient {
  /** Whether a request is plain: nothing of its own but its place in the queue. */
  const plain = (options: SendOptions | undefined) => {
    const { priority: _, ...own } = options ?? {};
    return !Object.values(own).some((v) => v !== undefined);
  };
  /** The answer kept of a request's copies: the newest version's, or one that is not a 200 array, to be judged. */
  const keep = (copies: readonly Exchange[]) => {
    const kept =
      copies.find((copy) => !recordsOf(copy)) ?? copies.reduce((newest, copy) => (isNewer(copy, newest, versions) ? copy : newest));
    discarded.set(
      kept,
      copies.filter((copy) => copy !== kept),
    );
    return kept;
  };
  return {
    secrets: client.secrets,
    stats: client.stats,
    ...(client.sendOnOneConnection ? { sendOnOneConnection: client.sendOnOneConnection } : {}),
    async send(operationId, path, query, options) {
      if (!plain(options)) return client.send(operationId, path, query, options);
      return keep(
        await Promise.all(
          client.sendTogether(
            operationId,
            Array.from({ length: COPIES }, () => ({ path, query, options })),
          ),
        ),
      );
    },
    sendTogether(operationId, asks) {
      // Every copy of every plain request in one group, so that the group still shows one moment.
      const sent = client.sendTogether(
        operationId,
        asks.flatMap((ask) => Array.from({ length: plain(ask.options) ? COPIES : 1 }, () => ask)),
      );
      let at = 0;
      return asks.map((ask) => {
        const n = plain(ask.options) ? COPIES : 1;
        const copies = sent.slice(at, at + n);
        at += n;
        return n === 1 ? copies[0]! : Promise.all(copies).then(keep);
      });
    },
  };
}
