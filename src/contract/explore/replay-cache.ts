import { LRUCache } from 'lru-cache';

/**
 * Answers kept for the exploration checks to replay: they judge the same generated requests one check after
 * another, so the first `first` answers stored are kept for the run (each later check finds them), and
 * beyond those the `recent` last ones (a request sent ahead, then judged). Memory does not grow with
 * --examples; an answer no longer kept is sent again when asked for again. What is kept depends only on the
 * order of the calls, never on when answers arrive.
 *
 * @example
 * const cache = createReplayCache<Promise<Exchange>>(512, 128);
 * const exchange = cache.get(key) ?? cache.set(key, send());
 */
export function createReplayCache<V extends {}>(first: number, recent: number) {
  const kept = new Map<string, V>();
  const lately = new LRUCache<string, V>({ max: recent });
  return {
    get: (key: string): V | undefined => kept.get(key) ?? lately.get(key),
    /** Stores `value` under `key` (in place of what it held) and returns it. */
    set(key: string, value: V): V {
      if (kept.has(key) || kept.size < first) kept.set(key, value);
      else lately.set(key, value);
      return value;
    },
    /** What it keeps, the first stored first. */
    entries: (): [string, V][] => [...kept, ...[...lately.entries()].reverse()],
  };
}
