import type { Context } from 'hono';
import { requestHeader } from './request-header.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's Prefer preferences, parsed by the first middleware that asks (see preferencesOf). */
    preferences: ReadonlyMap<string, string> | undefined;
  }
}

/**
 * Parses RFC 7240 `Prefer` headers into preference -> value (lower-cased names; `true` for a bare
 * token). Parameters after `;` are dropped, and the first occurrence of a preference wins, as the RFC
 * asks. Anything malformed is skipped: unknown or broken preferences are ignored, never an error.
 */
export function parsePrefer(header: string | undefined): Map<string, string> {
  const preferences = new Map<string, string>();
  if (!header) return preferences;
  for (const part of header.split(',')) {
    const [pair] = part.split(';');
    const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^\s"]*))?\s*$/.exec(pair ?? '');
    if (!match) continue;
    const name = match[1]!.toLowerCase();
    const raw = match[2] ?? 'true';
    if (!preferences.has(name)) preferences.set(name, raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
  }
  return preferences;
}

/** The preferences of a request without a Prefer header: shared, never written. */
const NONE: ReadonlyMap<string, string> = new Map();

/**
 * A request's preferences (see parsePrefer), parsed once per request: the latency middleware, the forced
 * response and the listing route each read one.
 */
export function preferencesOf(c: Context): ReadonlyMap<string, string> {
  let preferences = c.get('preferences');
  if (!preferences) {
    const header = requestHeader(c, 'prefer');
    preferences = header ? parsePrefer(header) : NONE;
    c.set('preferences', preferences);
  }
  return preferences;
}
