/**
 * A duration for people: whole milliseconds under a second, tenths of a second above.
 *
 * @example
 * duration(35.4); // '35 ms'
 * duration(1830); // '1.8 s'
 */
export const duration = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
