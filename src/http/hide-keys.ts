import type { Context, MiddlewareHandler } from 'hono';
import { redact, type Secrets } from '../secrets/redact.ts';

/** Replaces every form of the configured keys in a text (see {@link redact}); the identity when there are none. */
export type HideKeys = (text: string) => string;

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by {@link hideKeys}: what every text the app writes about a request goes through. */
    hideKeys: HideKeys | undefined;
  }
}

/**
 * A function that hides `keys` wherever a client may have put them in a URL or a header value: as
 * they are, percent-encoded, JSON-escaped, in any letter case (the kit's redaction rules).
 */
export function keyHider(keys: readonly string[]): HideKeys {
  const secrets: Secrets = { headerValues: keys.filter((key) => key.length > 0) };
  return secrets.headerValues.length === 0 ? (text) => text : (text) => redact(text, secrets);
}

/** The request's HideKeys (see hideKeys), or the identity where no middleware set one. */
export const hideKeysIn = (c: Context): HideKeys => c.get('hideKeys') ?? ((text) => text);

/**
 * Makes `hide` the app's redaction for the request: problem documents (instance, detail) and log lines
 * read it from the context, so a key sent in the URL (`?x-api-key=<key>`) is never echoed back.
 */
export function hideKeys(hide: HideKeys): MiddlewareHandler {
  // Not async: next()'s promise is returned as it is, one promise and one await fewer per request.
  return (c, next) => {
    c.set('hideKeys', hide);
    return next();
  };
}
