import type { Exchange, Place } from '../types.ts';

/** Orders two places: the run's order, a place before those it is a prefix of. *
 * @example
 * const inOrder = [...recorded].sort((a, b) => comparePlaces(a.place, b.place));
 */
export function comparePlaces(a: Place, b: Place): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The place of a request sent again alone (see Exchange.firstUnderLoad): after every other, in the order of the
 * first sending's place, so that whether a run sent any again never moves the others.
 *
 * @example
 * record(exchange.firstUnderLoad, place);
 * record(exchange, sentAgainAlone(place));
 */
export const sentAgainAlone = (place: Place): Place => [Number.MAX_SAFE_INTEGER, ...place];

/** Takes one request as it is made, to place it in its list. */
export type Track = (exchange: Promise<Exchange>) => void;

/**
 * Follows the requests of one listing as they are made and hands each exchange to `settled` when its answer
 * arrives, with its place; nothing is kept once handed on, so a long run holds only what its checks keep.
 *
 * @example
 * const recorder = createExchangeRecorder(0, (exchange, place) => log.add(exchange, place));
 * const track = recorder.list();
 * track(client.send(...));
 * await recorder.settled();
 */
export function createExchangeRecorder(listing: number, settled: (exchange: Exchange, place: Place) => void) {
  const pending = new Set<Promise<void>>();
  let lists = 0;
  return {
    /** A new list of requests, placed after the lists made before it. */
    list(): Track {
      const index = lists;
      lists += 1;
      let position = 0;
      return (exchange) => {
        const place = [listing, index, position];
        position += 1;
        // A request that throws is the kit's own failure, reported where it is awaited; here it only ends.
        const handed = exchange.then(
          (e) => settled(e, place),
          () => undefined,
        );
        pending.add(handed);
        const done = () => pending.delete(handed);
        handed.then(done, done);
      };
    },
    /** Resolves once every request made so far (and any made meanwhile) is handed on. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
