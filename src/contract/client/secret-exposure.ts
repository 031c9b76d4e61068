// Whether an answer hands out a credential: read before the client redacts it (after, nothing would show).
import { redact, type Secrets } from '../../secrets/redact.ts';

/** A credential in an answer: where, and whether the request carried it itself (an echo). */
export interface SecretExposure {
  /** The request carried it: an echo of its own credential. */
  readonly echo: boolean;
  readonly where: 'body' | 'headers';
}

/** Credential headers among --header: Authorization, Cookie, and names ending in -key or -token. */
export const isCredentialHeader = (name: string) => /^(authorization|cookie)$|-(key|token)$/i.test(name);

/**
 * What a request carried that an answer may echo: its headers' values and their words (a key after `Bearer`), and
 * its cookies' values, and its query's values (a key sent in the URL).
 *
 * @example
 * carriedBy({ authorization: 'Bearer abc' }, new URL('http://t/alert?api_key=xyz')); // ['Bearer abc', 'Bearer', 'abc', 'xyz']
 */
export const carriedBy = (headers: Readonly<Record<string, string>>, url: URL): string[] => [
  // A cookie's value too (`x-api-key=<key>`).
  ...Object.values(headers).flatMap((value) => [value, ...value.split(/[\s,;=]+/)]),
  ...url.searchParams.values(),
];

/**
 * `text` without the credentials the request carried, whole: as sent, URL-encoded (as a query string writes it,
 * or as encodeURIComponent does), and each of those as a JSON string holds it (`\/` for `/` too).
 */
function withoutCarried(text: string, carried: readonly string[]): string {
  let rest = text;
  for (const value of carried) for (const form of carriedForms(value)) rest = rest.split(form).join(' ');
  return rest;
}

function carriedForms(value: string): Set<string> {
  if (value.length === 0) return new Set();
  const encoded = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
  const json = encoded.flatMap((form) => {
    const escaped = JSON.stringify(form).slice(1, -1);
    return [escaped, escaped.replaceAll('/', '\\/')];
  });
  // Longest first: a form inside a longer one must not cut that one apart.
  return new Set([...encoded, ...json].sort((a, b) => b.length - a.length));
}

/**
 * Whether `texts` (an answer's body and headers, raw) hold a credential: the key, or for a key of 16 characters
 * or more any run of 8 of its characters, in any form the redactor catches (`credentials`). Held once the
 * credentials the request carried (`carried`: its key, a look-alike, its credential headers) are taken out: a
 * leak; held only in them: an echo.
 *
 * @example
 * exposure({ body: '{"detail":"expected sk_live_4f9a2b7c1d3e5a6b"}', headers: '' }, credentials, ['wrong-key']);
 * // { echo: false, where: 'body' }
 */
export function exposure(
  texts: { readonly body: string; readonly headers: string },
  credentials: Secrets,
  carried: readonly string[],
): SecretExposure | undefined {
  if (credentials.apiKey === undefined && credentials.headerValues.length === 0) return undefined;
  const shows = (text: string) => text.length > 0 && redact(text, credentials) !== text;
  const where = (['body', 'headers'] as const).find((w) => shows(texts[w]));
  return where ? { echo: !shows(withoutCarried(texts[where], carried)), where } : undefined;
}
