/** How the API key is written wherever the kit shows a request: an environment variable to set. */
export const API_KEY_PLACEHOLDER = '$TEMPMON_API_KEY';
/** How the values of extra `--header`s are written: they may be gateway secrets too. */
export const HEADER_PLACEHOLDER = '<redacted>';

/** The values that must never appear in any output. */
export interface Secrets {
  readonly apiKey?: string;
  readonly headerValues: readonly string[];
}

/** Below this length a secret is replaced only where it stands alone, not inside other words. */
export const SHORT_SECRET = 8;
/** From this length on, any fragment of {@link FRAGMENT} characters of a secret counts as a leak. */
const LONG_SECRET = 16;
const FRAGMENT = 8;

/**
 * Replaces every occurrence of each secret in `text`, in the forms a target may echo it back: literal,
 * JSON-escaped (`\u0073` for `s`, mixed with literal characters), URL-encoded (`%73`, `+` for a space) and
 * base64 (standard and url-safe, at any byte offset, so inside a longer base64 string too). Except in
 * base64, ASCII letter case is ignored: the kit itself sends the key in upper, lower and swapped case (to
 * catch servers that fold case), and a server that accepts or echoes such a variant must not get it printed,
 * since swapping the case back gives the key.
 *
 * - A secret of {@link LONG_SECRET} characters or more: any run of text (up to spaces, quotes, brackets
 *   and separators) holding any 8-character fragment of it is replaced, so a preview cut in the middle
 *   of the key, or a target echoing half of it, shows nothing of it.
 * - A shorter one is replaced where it occurs whole.
 * - A very short one (a test key such as `k`) only where it stands alone as a token: replacing every
 *   letter k would wreck the report while protecting nothing.
 *
 * Applied when an exchange is recorded and again to every report. Linear in the text's length.
 */
export function redact(text: string, secrets: Secrets): string {
  return compile(secrets).redact(text);
}

/**
 * A copy of a parsed JSON value with every string and every object key redacted as by {@link redact},
 * so a preview cut later from any part of it is already clean. Iterative: a deeply nested hostile body
 * cannot overflow the stack.
 */
export function redactValue(value: unknown, secrets: Secrets): unknown {
  const redactor = compile(secrets);
  if (!redactor.active) return value;
  const clean = (text: string) => redactor.redact(text);
  const root: Record<string, unknown> = {};
  const work: { from: unknown; into: Record<string, unknown>; at: string }[] = [{ from: value, into: root, at: 'value' }];
  for (let item = work.pop(); item; item = work.pop()) {
    const { from, into, at } = item;
    if (typeof from === 'string') {
      into[at] = clean(from);
    } else if (Array.isArray(from)) {
      const copy: unknown[] = new Array(from.length);
      into[at] = copy;
      for (const [index, element] of from.entries())
        work.push({ from: element, into: copy as unknown as Record<string, unknown>, at: String(index) });
    } else if (from !== null && typeof from === 'object') {
      const copy: Record<string, unknown> = {};
      into[at] = copy;
      for (const [key, element] of Object.entries(from)) {
        const name = clean(key);
        // Defined now, in the source's order (the stack fills them in reverse); defineProperty so that a
        // "__proto__" key stays an own property, as JSON.parse made it.
        Object.defineProperty(copy, name, { value: undefined, writable: true, enumerable: true, configurable: true });
        work.push({ from: element, into: copy, at: name });
      }
    } else {
      into[at] = from;
    }
  }
  return root.value;
}

interface Redactor {
  readonly active: boolean;
  redact(text: string): string;
}

/** A part of a text to replace, in the text's own coordinates. */
interface Span {
  start: number;
  end: number;
  readonly placeholder: string;
  /** The secret's length: where spans of two secrets overlap, the longer one names the whole. */
  readonly rank: number;
}

interface Named {
  readonly placeholder: string;
  readonly rank: number;
}

const compiled = new WeakMap<Secrets, Redactor>();

function compile(secrets: Secrets): Redactor {
  let redactor = compiled.get(secrets);
  if (!redactor) {
    redactor = build(secrets);
    compiled.set(secrets, redactor);
  }
  return redactor;
}

function build(secrets: Secrets): Redactor {
  const named: [string, string][] = [
    ...(secrets.apiKey ? [[secrets.apiKey, API_KEY_PLACEHOLDER] as [string, string]] : []),
    ...secrets.headerValues.filter((v) => v.length > 0).map((v): [string, string] => [v, HEADER_PLACEHOLDER]),
  ];
  if (named.length === 0) return { active: false, redact: (text) => text };

  // Fragments of the text forms, by their case-folded text; fragments of base64 forms (where case is
  // meaning), as they are.
  const fragments: Fragments = { folded: new Map(), exact: new Map() };
  const wholes: { form: string; named: Named; folded: boolean }[] = [];
  const tokens: { pattern: RegExp; named: Named }[] = [];
  const keep = (map: Map<string, Named>, window: string, name: Named) => {
    if ((map.get(window)?.rank ?? -1) < name.rank) map.set(window, name);
  };
  for (const [secret, placeholder] of named) {
    const name: Named = { placeholder, rank: secret.length };
    if (secret.length >= LONG_SECRET) {
      for (const [forms, map, key] of [
        [textFormsOf(secret), fragments.folded, foldCase],
        [base64FormsOf(secret), fragments.exact, (w: string) => w],
      ] as const) {
        for (const form of forms) for (let i = 0; i + FRAGMENT <= form.length; i += 1) keep(map, key(form.slice(i, i + FRAGMENT)), name);
      }
    } else if (secret.length >= SHORT_SECRET) {
      for (const form of textFormsOf(secret)) wholes.push({ form: foldCase(form), named: name, folded: true });
      for (const form of base64FormsOf(secret)) wholes.push({ form, named: name, folded: false });
    } else {
      for (const form of textFormsOf(secret))
        tokens.push({ pattern: new RegExp(`(?<![\\w-])${escapeRegExp(form)}(?![\\w-])`, 'gi'), named: name });
    }
  }
  const scanner = fragments.folded.size + fragments.exact.size > 0 ? fragmentScanner(fragments) : undefined;

  return {
    active: true,
    redact(text) {
      const found: Span[] = [];
      for (const view of viewsOf(text)) {
        const add = (start: number, end: number, name: Named, wholeRun: boolean) => {
          const span = view.toOriginal(start, end);
          found.push(wholeRun ? { ...extendToRun(text, span), ...name } : { ...span, ...name });
        };
        scanner?.(view.text, (start, end, name) => add(start, end, name, true));
        // Folding keeps the length (ASCII letters only), so positions in the folded text are the view's.
        const folded = wholes.some((w) => w.folded) ? foldCase(view.text) : view.text;
        for (const { form, named: name, folded: caseless } of wholes) {
          const text = caseless ? folded : view.text;
          for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) add(at, at + form.length, name, false);
        }
        for (const { pattern, named: name } of tokens) {
          for (const match of view.text.matchAll(pattern)) add(match.index, match.index + match[0].length, name, false);
        }
      }
      return found.length === 0 ? text : replaceSpans(text, found);
    },
  };
}

/**
 * The text forms a target may echo a secret in, once escapes are decoded: as is; URL form-encoded, where
 * a space becomes `+`; its UTF-8 bytes one per character (what `%XX` escapes decode to).
 */
function textFormsOf(secret: string): string[] {
  return [...new Set([secret, secret.replaceAll(' ', '+'), Buffer.from(secret, 'utf8').toString('latin1')])].filter(
    (form) => form.length > 0,
  );
}

/**
 * The characters of a secret's base64 encoding that depend on the secret alone, at each of the three byte
 * offsets it can start at inside a longer encoded string, standard and url-safe.
 */
function base64FormsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>();
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters whose 6 bits all come from the secret: skip those mixing in the bytes before it,
    // stop before those mixing in the bytes after it.
    const form = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    forms.add(form);
    forms.add(form.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...forms].filter((form) => form.length > 0);
}

/** ASCII letters lower-cased; every other character kept, so the length and positions are the text's. */
const foldCase = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
/** {@link foldCase} of one character code. */
const foldCode = (code: number) => (code >= 65 && code <= 90 ? code | 0x20 : code);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// --- Fragment scan: a rolling hash over 8-character windows, checked against a bit filter, so a 16 MiB
// text costs one pass and a Set lookup only on the rare windows that may be a fragment.

const BASE = 0x01000193;
const BASE_POW = (() => {
  let power = 1;
  for (let i = 0; i < FRAGMENT - 1; i += 1) power = Math.imul(power, BASE);
  return power;
})();
const FILTER_BITS = 16;

/** The hash of the case-folded window of `text` at `from`. */
function hashOf(text: string, from: number): number {
  let hash = 0;
  for (let i = from; i < from + FRAGMENT; i += 1) hash = (Math.imul(hash, BASE) + foldCode(text.charCodeAt(i))) | 0;
  return hash;
}

type OnFragment = (start: number, end: number, name: Named) => void;

/** Windows of secrets: `folded` matched whatever the letter case (keys are folded), `exact` as they are. */
interface Fragments {
  readonly folded: Map<string, Named>;
  readonly exact: Map<string, Named>;
}

function fragmentScanner(fragments: Fragments): (text: string, found: OnFragment) => void {
  const filter = new Uint32Array(1 << (FILTER_BITS - 5));
  // Multiplied again so that the last characters, which reach only the hash's low bits, pick the slot too.
  const slot = (hash: number) => Math.imul(hash, 0x9e3779b1) >>> (32 - FILTER_BITS);
  // The rolling hash is of folded text: an exact window is filed under its folded hash too.
  for (const window of [...fragments.folded.keys(), ...fragments.exact.keys()]) {
    const s = slot(hashOf(window, 0));
    filter[s >>> 5]! |= 1 << (s & 31);
  }
  const lookup = (window: string): Named | undefined => {
    const folded = fragments.folded.get(foldCase(window));
    const exact = fragments.exact.get(window);
    return folded && exact ? (folded.rank >= exact.rank ? folded : exact) : (folded ?? exact);
  };
  return (text, found) => {
    if (text.length < FRAGMENT) return;
    let hash = hashOf(text, 0);
    // Consecutive matching windows of one secret make one span.
    let open: { start: number; end: number; name: Named } | undefined;
    for (let i = 0; ; i += 1) {
      const s = slot(hash);
      if ((filter[s >>> 5]! & (1 << (s & 31))) !== 0) {
        const name = lookup(text.slice(i, i + FRAGMENT));
        if (name) {
          if (open && open.name === name && i <= open.end) open.end = i + FRAGMENT;
          else {
            if (open) found(open.start, open.end, open.name);
            open = { start: i, end: i + FRAGMENT, name };
          }
        }
      }
      if (i + FRAGMENT >= text.length) break;
      hash = (Math.imul(hash - Math.imul(foldCode(text.charCodeAt(i)), BASE_POW), BASE) + foldCode(text.charCodeAt(i + FRAGMENT))) | 0;
    }
    if (open) found(open.start, open.end, open.name);
  };
}

// --- Escapes: a view of the text with `\uXXXX`, JSON's `\"`-style escapes and `%XX` decoded, each to one
// character, and a map back to the text for the spans found in it.

interface DecodedView {
  readonly text: string;
  toOriginal(start: number, end: number): { start: number; end: number };
}

const JSON_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const JSON_ESCAPE = /\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])/g;
const ANY_ESCAPE = /\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])|%([0-9a-fA-F]{2})/g;

const literal = (text: string): DecodedView => ({ text, toOriginal: (start, end) => ({ start, end }) });

/**
 * The views of a text to look for secrets in. As written: a literal fragment may follow an escape whose hex
 * digits look like its start (`\u4f9a2b7c` for a key holding 4f9a2b7c). JSON escapes decoded alone: text
 * such as `%4f9a...` is JSON's, not a URL's, and a JSON parser shows it as is. All escapes decoded.
 */
function viewsOf(text: string): DecodedView[] {
  const json = text.includes('\\') && /\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/.test(text);
  const percent = text.includes('%') && /%[0-9a-fA-F]{2}/.test(text);
  return [literal(text), ...(json ? [decodeEscapes(text, JSON_ESCAPE)] : []), ...(percent ? [decodeEscapes(text, ANY_ESCAPE)] : [])];
}

function decodeEscapes(text: string, pattern: RegExp): DecodedView {
  // One entry per escape: where its character stands in the view, where the escape starts in the text, its length.
  const at: number[] = [];
  const from: number[] = [];
  const length: number[] = [];
  const parts: string[] = [];
  let last = 0;
  let shift = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(text.slice(last, match.index));
    const [whole, unicode, json, percent] = match;
    parts.push(
      unicode ? String.fromCharCode(parseInt(unicode, 16)) : json ? JSON_ESCAPES[json]! : String.fromCharCode(parseInt(percent!, 16)),
    );
    at.push(match.index - shift);
    from.push(match.index);
    length.push(whole.length);
    shift += whole.length - 1;
    last = match.index + whole.length;
  }
  if (at.length === 0) return literal(text);
  parts.push(text.slice(last));

  /** The span in the text of the view's character `p`. */
  const original = (p: number): [number, number] => {
    let low = 0;
    let high = at.length - 1;
    let k = -1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (at[mid]! <= p) {
        k = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (k < 0) return [p, p + 1];
    if (at[k] === p) return [from[k]!, from[k]! + length[k]!];
    const position = from[k]! + length[k]! + (p - at[k]! - 1);
    return [position, position + 1];
  };
  return { text: parts.join(''), toOriginal: (start, end) => ({ start: original(start)[0], end: original(end - 1)[1] }) };
}

// --- Replacing: a fragment's span grows to its whole run of text; overlapping spans merge.

/** Characters that end a run of text: whitespace, quotes, brackets, and the separators of URLs, headers and lists. */
const DELIMITERS = new Set([...' \t\n\r\f\v"\'`<>()[]{},;:&?#=|'].map((c) => c.charCodeAt(0)));
const isDelimiter = (code: number) => DELIMITERS.has(code) || code === 0xa0 || code === 0x2028 || code === 0x2029;

function extendToRun(text: string, span: { start: number; end: number }): { start: number; end: number } {
  let { start, end } = span;
  // A fragment may begin or end with a separator the secret holds (the space of "Bearer x"): the text
  // beyond it is another word, kept. Any fragment reaching into that word is a span of its own.
  while (end - start > 1 && isDelimiter(text.charCodeAt(start))) start += 1;
  while (end - start > 1 && isDelimiter(text.charCodeAt(end - 1))) end -= 1;
  while (start > 0 && !isDelimiter(text.charCodeAt(start - 1))) start -= 1;
  while (end < text.length && !isDelimiter(text.charCodeAt(end))) end += 1;
  // A run ending in an escaping backslash (`\"` inside a JSON string) leaves it: replacing it would unescape the quote.
  let backslashes = 0;
  while (end - backslashes > start && text[end - backslashes - 1] === '\\') backslashes += 1;
  if (backslashes % 2 === 1 && end < text.length && end - start > 1) end -= 1;
  // `=` separates names from values, but one or two at the end of a run are base64 padding: part of it.
  let padded = end;
  while (padded < text.length && padded - end < 2 && text[padded] === '=') padded += 1;
  if (padded > end && (padded === text.length || (text[padded] !== '=' && isDelimiter(text.charCodeAt(padded))))) end = padded;
  return { start, end };
}

function replaceSpans(text: string, spans: Span[]): string {
  spans.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let cursor = 0;
  let current: Span | undefined;
  const flush = () => {
    if (!current) return;
    parts.push(text.slice(cursor, current.start), current.placeholder);
    cursor = current.end;
  };
  for (const span of spans) {
    if (current && span.start < current.end) {
      const rank = Math.max(current.rank, span.rank);
      current = {
        start: current.start,
        end: Math.max(current.end, span.end),
        placeholder: rank === current.rank ? current.placeholder : span.placeholder,
        rank,
      };
    } else {
      flush();
      current = { ...span };
    }
  }
  flush();
  parts.push(text.slice(cursor));
  return parts.join('');
}
