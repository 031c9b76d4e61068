import fc from 'fast-check';
import { swapCase } from './case-forms.ts';

/** One way to send a request without the right key. */
export interface AuthVariant {
  readonly label: string;
  /** The value of the key header; `null` sends none. */
  readonly apiKey: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** An error when accepted, or only a warning (a looser server rather than a broken one). */
  readonly severity: 'error' | 'warning';
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ALPHABET = `${LOWER}${LOWER.toUpperCase()}0123456789-_`;

/** A character other than `c`, of the same kind where it can be (digit for digit, letter for letter). */
function otherChar(c: string, pick: number): string {
  const pool = /\d/.test(c) ? '0123456789' : /[a-z]/i.test(c) ? LOWER : ALPHABET;
  const options = [...pool].filter((x) => x.toLowerCase() !== c.toLowerCase());
  return options[pick % options.length]!;
}

/**
 * Keys that resemble `key` in the ways real servers get wrong (prefix comparison, case folding,
 * truncation, a length check only): one character edited, cut short, extended, in other letter case.
 * Seeded, so a run is replayed by its seed. Surrounding whitespace is left out: HTTP strips it.
 */
export function wrongKeys(key: string, seed: number, count: number): AuthVariant[] {
  const n = key.length;
  const edited = fc.tuple(fc.nat({ max: Math.max(0, n - 1) }), fc.nat()).map(([i, pick]) => ({
    label: `the key with character ${i + 1} of ${n} edited`,
    apiKey: key.slice(0, i) + otherChar(key[i] ?? 'a', pick) + key.slice(i + 1),
  }));
  const shortened = fc
    .integer({ min: 0, max: Math.max(0, n - 1) })
    .map((len) => ({ label: `the key cut to ${len} of ${n} characters`, apiKey: key.slice(0, len) }));
  const extended = fc.tuple(fc.constantFrom(...ALPHABET), fc.boolean()).map(([c, front]) => ({
    label: `the key with a character ${front ? 'before' : 'after'} it`,
    apiKey: front ? c + key : key + c,
  }));
  const recased = fc.constantFrom('upper', 'lower', 'swapped').map((how) => ({
    label: `the key in ${how} case`,
    apiKey: how === 'upper' ? key.toUpperCase() : how === 'lower' ? key.toLowerCase() : swapCase(key),
  }));
  const sampled = fc.sample(fc.oneof(edited, shortened, extended, recased), { seed, numRuns: count * 3 });
  const fixed = fixedWrongKeys(key, seed);
  const seen = new Set<string>([key]);
  return (
    [...fixed, ...sampled]
      .filter((v) => v.apiKey.length > 0 && !seen.has(v.apiKey) && Boolean(seen.add(v.apiKey)))
      .slice(0, fixed.length + count)
      // The whole key inside a longer value (a character added): a looser server, not a broken one.
      .map((v) => ({ ...v, severity: v.apiKey.includes(key) ? ('warning' as const) : ('error' as const) }))
  );
}

/**
 * The wrong keys every run sends first, before those sampled: its first, middle and last character edited (`seed`
 * picks the new ones), cut short three ways, a letter in the other case, a look-alike, two characters swapped.
 */
function fixedWrongKeys(key: string, seed: number): { label: string; apiKey: string }[] {
  const n = key.length;
  const middle = Math.floor(n / 2);
  const letter = [...key].findIndex((c) => c.toLowerCase() !== c.toUpperCase());
  const lookalike = [...key].findIndex((c) => c in HOMOGLYPHS);
  const swap = [...key].findIndex((c, i) => i + 1 < n && c !== key[i + 1]);
  return [
    { label: 'the key with its first character edited', apiKey: otherChar(key[0] ?? 'a', seed) + key.slice(1) },
    {
      label: `the key with its middle character (${middle + 1} of ${n}) edited`,
      apiKey: key.slice(0, middle) + otherChar(key[middle] ?? 'a', seed) + key.slice(middle + 1),
    },
    { label: 'the key with its last character edited', apiKey: key.slice(0, -1) + otherChar(key.at(-1) ?? 'a', seed) },
    { label: 'the key without its last character', apiKey: key.slice(0, -1) },
    { label: `the key cut to half (${middle} of ${n} characters)`, apiKey: key.slice(0, middle) },
    { label: 'the key cut to its first character', apiKey: key.slice(0, 1) },
    ...(letter >= 0 ? [{ label: `the key with character ${letter + 1} in the other case`, apiKey: recaseAt(key, letter) }] : []),
    ...(lookalike >= 0
      ? [
          {
            label: `the key with character ${lookalike + 1} replaced by a Unicode look-alike (sent as UTF-8)`,
            apiKey: utf8Bytes(key.slice(0, lookalike) + HOMOGLYPHS[key[lookalike]!]! + key.slice(lookalike + 1)),
          },
        ]
      : []),
    ...(swap >= 0
      ? [
          {
            label: `the key with characters ${swap + 1} and ${swap + 2} swapped`,
            apiKey: key.slice(0, swap) + key[swap + 1] + key[swap] + key.slice(swap + 2),
          },
        ]
      : []),
  ];
}

/** Letters with a look-alike in another script (Cyrillic, Greek): a server folding confusables accepts them. */
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  a: 'а',
  c: 'с',
  e: 'е',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  i: 'і',
  A: 'Α',
  B: 'Β',
  E: 'Ε',
  O: 'Ο',
};

/** `text`'s UTF-8 bytes as a header value can carry them (one byte per character). */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const recaseAt = (key: string, i: number) => key.slice(0, i) + swapCase(key[i]!) + key.slice(i + 1);

/**
 * The whole key inside other text, as a server that takes a word of the header, splits a list, or searches for
 * the key in the value would accept it: a warning when accepted (looser than the interface, not broken). One
 * is two header lines of the key's name, a wrong value and the key: on the wire, the same as `<other>, <key>`
 * (RFC 9110 joins repeated field lines with a comma).
 */
export function keyInText(key: string, seed: number): AuthVariant[] {
  const word = fc.sample(fc.string({ unit: fc.constantFrom(...LOWER), minLength: 6, maxLength: 6 }), { seed, numRuns: 1 })[0]!;
  const other = `tm-${word}`;
  const forms: [string, string][] = [
    [`a word, a space, then the key ("${word} <key>")`, `${word} ${key}`],
    [`the key, a space, then a word ("<key> ${word}")`, `${key} ${word}`],
    ['"Bearer <key>"', `Bearer ${key}`],
    ['a list holding the key first ("<key>,<another>")', `${key},${other}`],
    ['a list holding the key last ("<another>,<key>")', `${other},${key}`],
    ['a second header line of the key after a wrong one ("<another>, <key>")', `${other}, ${key}`],
    ['the key with a parameter ("<key>;x")', `${key};x`],
    ['the key twice in a row', `${key}${key}`],
  ];
  return forms.map(([label, apiKey]) => ({ label: `the key inside other text: ${label}`, apiKey, severity: 'warning' }));
}

/** Requests without the key: none, empty, random, other credentials in its place, and the right key elsewhere (query, cookies). */
export function missingKeys(keyHeader: string, key: string | undefined, seed: number): AuthVariant[] {
  const token = fc.sample(fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 24, maxLength: 24 }), { seed, numRuns: 1 })[0]!;
  return [
    { label: 'no key', apiKey: null, severity: 'error' },
    { label: 'an empty key', apiKey: '', severity: 'error' },
    { label: 'a random key', apiKey: `tm-${token}`, severity: 'error' },
    { label: 'no key but an Authorization bearer token', apiKey: null, headers: { authorization: `Bearer ${token}` }, severity: 'error' },
    {
      label: 'no key but Basic credentials',
      apiKey: null,
      headers: { authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` },
      severity: 'error',
    },
    // The interface puts the key in a header; a server that also takes it from the URL or a cookie (session
    // middleware, a gateway reading browsers' credentials) is looser, not broken.
    ...(key ? otherCarriers(keyHeader, key) : []),
  ];
}

/** Names a cookie holding a credential goes by in frameworks and gateways, besides the header's own. */
export const GENERIC_COOKIES = ['api_key', 'token', 'session'] as const;

/** The right key where the interface does not put it: in the query, in a cookie named after the header, in generic cookies. */
function otherCarriers(keyHeader: string, key: string): AuthVariant[] {
  const cookie = cookieValue(key);
  return [
    { label: `the right key in the query (?${keyHeader}=…) instead of the header`, apiKey: null, query: { [keyHeader]: key } },
    {
      label: `the right key in a cookie (Cookie: ${keyHeader}=…) instead of the header`,
      apiKey: null,
      headers: { cookie: `${keyHeader}=${cookie}` },
    },
    {
      label: `the right key in generic cookies (Cookie: ${GENERIC_COOKIES.map((name) => `${name}=…`).join('; ')}) instead of the header`,
      apiKey: null,
      headers: { cookie: GENERIC_COOKIES.map((name) => `${name}=${cookie}`).join('; ') },
    },
  ].map((variant) => ({ ...variant, severity: 'warning' as const }));
}

/** `key` as a cookie's value: as it is when RFC 6265 allows its characters there, else URL-encoded (what servers decode). */
const cookieValue = (key: string) => (/^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/.test(key) ? key : encodeURIComponent(key));
