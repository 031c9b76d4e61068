import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { Operation } from '../spec/operations.ts';
import type { DatasetStore } from '../store/dataset-store.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** Live data: the instant (ms) the app took the request, which its answer is a function of. */
    moment: number | undefined;
  }
}

/** The header a live answer states its moment in (the spec documents it, marked mock-only). */
export const MOMENT_HEADER = 'tempmon-moment';

/**
 * Reads the clock when the app takes a listing request, before any delay: the answer is the data as it was
 * then, whenever it is sent. Over node:http the listener has read it (see createResponseCache): `held`
 * gives that moment, so a request's clock is read once.
 *
 * @example
 * app.get('/alert', takeMoment(() => Date.now(), cache.momentOf));
 */
export const takeMoment =
  (clock: () => number, held: (request: IncomingMessage | undefined) => number | undefined = () => undefined): MiddlewareHandler =>
  (c, next) => {
    c.set('moment', held((c.env as { incoming?: IncomingMessage } | undefined)?.incoming) ?? clock());
    return next();
  };

/**
 * The data a live listing request's answer is made of, for the response cache: the store's identity and the
 * listing's count of changes at the moment (as in the answer's ETag); undefined for any other request,
 * whose answer is then never replayed.
 *
 * @example
 * liveIdentity(store, operations)('/alert?page=3', Date.now()); // 'live:1:alerts=300,...@8412'
 */
export function liveIdentity(
  store: DatasetStore,
  operations: readonly Operation[],
): (url: string | undefined, moment: number | undefined) => string | undefined {
  const listings = new Map(operations.map((operation) => [operation.path, operation.collection.key]));
  return (url, moment) => {
    if (url === undefined || moment === undefined) return undefined;
    const query = url.indexOf('?');
    const key = listings.get(query < 0 ? url : url.slice(0, query));
    const events = key === undefined ? undefined : store.collection(key).events?.(moment);
    return events === undefined ? undefined : `${store.identity}@${events}`;
  };
}
