// How long to wait before retrying a 429: what its Retry-After says, within a bound.

/** Longest wait before retrying a 429, whatever its Retry-After says. */
export const MAX_RETRY_WAIT_MS = 30_000;

/** How long to wait before retry number `tries + 1`: Retry-After (seconds or an HTTP date), else a short backoff. */
export function retryDelay(retryAfter: string | null, tries: number): number {
  if (retryAfter !== null) {
    const value = retryAfter.trim();
    const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
  }
  return Math.min(500 * 2 ** tries, MAX_RETRY_WAIT_MS);
}
