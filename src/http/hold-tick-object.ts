import { executionAsyncResource } from 'node:async_hooks';

// The tick object held for the life of the process; never read (holding it is the point), hence the _.
let _held: object | undefined;

/**
 * Keeps one of `process.nextTick`'s tick objects alive for the life of the process, so that the hidden
 * classes (maps) of tick objects are never collected.
 *
 * Why: `nextTick` builds each tick object as a literal with computed symbol keys, and V8 records the map
 * each key is defined on. When a full GC runs while no tick is pending (as during a collection's first
 * search, when the request before it on its connection left nothing queued), nothing holds those maps: the
 * next tick builds new ones, the recorded maps no longer match, and the feedback turns megamorphic for good.
 * From then on every tick object (several per HTTP request) is built in V8's runtime instead of the
 * optimized code, which costs every replayed page CPU (docs/performance.md). Seen on Node 24 and 26; see
 * test/http/hold-tick-object.test.ts.
 *
 * Costs one small object; a later call costs a tick and holds that tick's object instead.
 */
export function holdTickObject(): void {
  // Inside a tick's callback, the current async resource is that tick's object.
  process.nextTick(() => {
    _held = executionAsyncResource();
  });
}
