import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from './answer-cache.ts';
import { FORCE_PARAMETER } from './forced-response.ts';
import { keyChecker } from './key-checker.ts';
import type { Answerer } from './list-route.ts';

/** What the fast path needs of one listing: how to answer it and how to check its key. */
export interface FastListing {
  readonly path: string;
  readonly answer: Answerer;
  readonly keyHeader?: string;
}

/** Headers every listing answer carries, as the CORS middleware sets them. */
export const CORS_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'X-Total-Count,Link,Retry-After,Preference-Applied,ETag',
};

/**
 * Serves plain listing requests straight from node:http with the listing's own answerer, skipping the
 * Fetch API objects of the full app: a cached answer then costs about what a bare server's does.
 * Anything else (an invalid query, an unknown or missing key, Prefer, If-None-Match, the index still
 * warming, simulated conditions) is left to the app, which answers it. Returns whether it answered.
 */
export function createFastPath(listings: readonly FastListing[], apiKeys: readonly string[]) {
  const byPath = new Map(listings.map((l) => [l.path, l]));
  const knownKey = keyChecker(apiKeys);

  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const { method, headers } = request;
    if ((method !== 'GET' && method !== 'HEAD') || headers.prefer !== undefined || headers['if-none-match'] !== undefined) return false;
    const raw = request.url ?? '/';
    // Forcing a state (Prefer, ?__code=) is the app's middleware's job: leave those requests to it.
    if (raw.includes(FORCE_PARAMETER)) return false;
    const q = raw.indexOf('?');
    const listing = byPath.get(q < 0 ? raw : raw.slice(0, q));
    if (!listing) return false;
    const given = listing.keyHeader ? headers[listing.keyHeader] : undefined;
    if (listing.keyHeader && (typeof given !== 'string' || !knownKey(given))) return false;
    // The same URL the app sees (@hono/node-server builds it from Host and the path).
    let url: URL;
    try {
      url = new URL(`http://${headers.host ?? 'localhost'}${raw}`);
    } catch {
      return false;
    }
    const outcome = listing.answer(url, false);
    if (!('answer' in outcome)) return false;
    const { answer } = outcome;
    answer.wire ??= wire(answer);
    response.writeHead(200, answer.wire.headers);
    response.end(method === 'HEAD' ? undefined : answer.wire.bytes);
    return true;
  };
}

function wire(answer: Answer) {
  const bytes = Buffer.from(answer.body, 'utf8');
  return {
    bytes,
    headers: {
      ...CORS_RESPONSE_HEADERS,
      'content-type': 'application/json',
      'content-length': String(bytes.length),
      'x-total-count': String(answer.total),
      ...(answer.link ? { link: answer.link } : {}),
      etag: answer.etag,
    },
  };
}
