import { LRUCache } from 'lru-cache';

/** Bounds of an {@link AdmissionCache}. */
export interface AdmissionCacheOptions<V> {
  /** Values kept at most. */
  readonly max: number;
  /** With {@link sizeOf}: the total size kept at most. */
  readonly maxSize?: number;
  readonly sizeOf?: (value: V) => number;
  /** Keys remembered as seen (default 4 × max): see {@link doorkeeper}. */
  readonly remembered?: number;
}

/**
 * The one cache policy of the mock's caches (answers, whole responses, search matches): a value is admitted
 * from its key's second sight on, and the least recently used goes first. A key asked for once (a fresh search
 * term per request) evicts nothing and costs only a Set's add.
 *
 * @example
 * const cache = new AdmissionCache<string>({ max: 64 });
 * cache.offer('a', 'first');  // not kept: the first sight of 'a'
 * cache.offer('a', 'second'); // kept
 * cache.get('a');             // 'second'
 */
export class AdmissionCache<V extends {}> {
  readonly #values: LRUCache<string, V>;
  readonly #seenBefore: (key: string) => boolean;

  constructor(options: AdmissionCacheOptions<V>) {
    this.#values = new LRUCache<string, V>({
      max: options.max,
      ...(options.maxSize && options.sizeOf ? { maxSize: options.maxSize, sizeCalculation: options.sizeOf } : {}),
    });
    this.#seenBefore = doorkeeper(options.remembered ?? options.max * 4);
  }

  get(key: string): V | undefined {
    return this.#values.get(key);
  }

  /** Notes a sight of `key`: true from its second on, when a value for it is worth keeping (then {@link set}). */
  admits(key: string): boolean {
    return this.#seenBefore(key);
  }

  /** Keeps a value whatever the sights (after {@link admits} said yes, when the value came later). */
  set(key: string, value: V): void {
    this.#values.set(key, value);
  }

  /** Keeps `value` if its key was seen before (see {@link admits}). */
  offer(key: string, value: V): void {
    if (this.#seenBefore(key)) this.#values.set(key, value);
  }
}

/**
 * Tells whether a key was seen before, remembering the last `limit` to `2 * limit` keys: two generations of
 * Sets, the older dropped whole when the newer fills. Unlike an LRU, a stream of keys never seen twice costs no
 * eviction per key.
 */
export function doorkeeper(limit: number): (key: string) => boolean {
  let recent = new Set<string>();
  let older = new Set<string>();
  return (key) => {
    if (recent.has(key) || older.has(key)) return true;
    if (recent.size >= limit) {
      older = recent;
      recent = new Set();
    }
    recent.add(key);
    return false;
  };
}
