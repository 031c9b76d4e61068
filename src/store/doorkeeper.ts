/**
 * Tells whether a key was seen before, remembering the last `limit` to `2 * limit` keys: two
 * generations of Sets, the older dropped whole when the newer fills. What the response cache asks
 * before storing an answer (only a request that comes again is worth storing). Unlike an LRU, a stream
 * of keys never seen twice (a fresh search term per request) costs no eviction per key, only a Set's add.
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
