import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact, redactValue, type Secrets } from '../../src/secrets/redact.ts';

const KEY = 'sk_live_4f9a2b7c1d3e'; // 20 characters: the fragment rule applies
const secrets: Secrets = { apiKey: KEY, headerValues: [] };

/** Every 8-character fragment of the key that appears in `text`. */
const fragmentsIn = (text: string, secret = KEY) =>
  Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8)).filter((fragment) => text.includes(fragment));

/** `text` with the characters at the chosen positions written as JSON `\\uXXXX` escapes. */
const jsonEscape = (text: string, every: (i: number) => boolean, upper = false) =>
  [...text]
    .map((c, i) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      return every(i) ? `\\u${upper ? hex.toUpperCase() : hex}` : c;
    })
    .join('');

describe('redact: short and medium secrets keep the whole-token rules', () => {
  it('replaces a medium key (8 to 15 characters) wherever it occurs whole, and header values with <redacted>', () => {
    const medium = { apiKey: 'sk_live_abc1234', headerValues: ['gateway-token-9'] };
    expect(redact('a sk_live_abc1234 b xsk_live_abc1234x gateway-token-9', medium)).toBe(
      'a $TEMPMON_API_KEY b x$TEMPMON_API_KEYx <redacted>',
    );
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    expect(redact('token-abc-123-long', { apiKey: 'token-abc-123', headerValues: ['token-abc-123-long'] })).toBe('<redacted>');
  });

  it('replaces a short key only where it stands alone', () => {
    const short = { apiKey: 'k.1', headerValues: [] };
    expect(redact('key k.1 in "k.1" not kk.1 or k.12; link', short)).toBe(
      'key $TEMPMON_API_KEY in "$TEMPMON_API_KEY" not kk.1 or k.12; link',
    );
  });

  it('leaves text without secrets as it is', () => {
    expect(redact('nothing to see: {"a":"\\u00e9 50%"}', secrets)).toBe('nothing to see: {"a":"\\u00e9 50%"}');
    expect(redact('anything', { headerValues: [] })).toBe('anything');
  });
});

describe('redact: a long key leaves no 8-character fragment in any form', () => {
  it('replaces the run of text holding the key, up to quotes and separators', () => {
    expect(redact(`{"echo":"${KEY}","id":1}`, secrets)).toBe('{"echo":"$TEMPMON_API_KEY","id":1}');
    expect(redact(`GET /alert?key=${KEY}&page=2`, secrets)).toBe('GET /alert?key=$TEMPMON_API_KEY&page=2');
    expect(redact(`x${KEY}x and more`, secrets)).toBe('$TEMPMON_API_KEY and more');
  });

  it('catches the key echoed after 70 characters, whatever cut is made later', () => {
    const body = `{"error":"unauthorized","detail":"the key you sent is not valid for this tenant: ${KEY} (see the docs)"}`;
    expect(body.indexOf(KEY)).toBeGreaterThan(70);
    const clean = redact(body, secrets);
    // A preview cut at any length, from the redacted text, shows no fragment.
    for (let cut = 60; cut <= clean.length; cut += 1) expect(fragmentsIn(clean.slice(0, cut))).toEqual([]);
    // And the report's own pass over a preview cut from the raw text catches a half key.
    const half = body.slice(0, body.indexOf(KEY) + 10);
    expect(fragmentsIn(half)).not.toEqual([]);
    expect(fragmentsIn(redact(half, secrets))).toEqual([]);
    expect(redact(half, secrets)).toMatch(/tenant: \$TEMPMON_API_KEY$/);
  });

  it('catches an 8-character fragment of a 20-character key', () => {
    const fragment = KEY.slice(5, 13);
    expect(redact(`prefix ${fragment} suffix`, secrets)).toBe('prefix $TEMPMON_API_KEY suffix');
    expect(redact(`part:${KEY.slice(12)}`, secrets)).toBe('part:$TEMPMON_API_KEY');
    // Seven characters are not a fragment: text that merely shares them stays.
    expect(redact(`id ${KEY.slice(5, 12)}`, secrets)).toBe(`id ${KEY.slice(5, 12)}`);
  });

  it('catches the key and its fragments in other letter case (the kit itself sends upper, lower and swapped case)', () => {
    const key = 'tmk_live.7Hq2-Zx9/Wp4+Rv8~Lc3Ne6Ya1Ks5';
    const s: Secrets = { apiKey: key, headerValues: [] };
    const swapped = [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    for (const variant of [key.toUpperCase(), key.toLowerCase(), swapped, `${swapped.slice(0, 12)}`, `x${key.toUpperCase().slice(20)}`]) {
      expect(redact(`curl -H 'x-api-key: ${variant}' "${variant}" ok`, s), variant).toBe(
        `curl -H 'x-api-key: $TEMPMON_API_KEY' "$TEMPMON_API_KEY" ok`,
      );
    }
    // Escaped and URL-encoded forms too; text around keeps its own case.
    const escaped = [...swapped].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(redact(`{"Echo":"${escaped}","Next":"/Login?k=${encodeURIComponent(key.toUpperCase())}"}`, s)).toBe(
      '{"Echo":"$TEMPMON_API_KEY","Next":"/Login?k=$TEMPMON_API_KEY"}',
    );
    // A medium key (whole-word rule) and a short one (token rule) in other case.
    const medium: Secrets = { apiKey: 'sk_Live_abc1234', headerValues: [] };
    expect(redact('a SK_LIVE_ABC1234 b sk_live_ABC1234x', medium)).toBe('a $TEMPMON_API_KEY b $TEMPMON_API_KEYx');
    expect(redact('key K.1 in "k.1"; not kK.1', { apiKey: 'k.1', headerValues: [] })).toBe(
      'key $TEMPMON_API_KEY in "$TEMPMON_API_KEY"; not kK.1',
    );
    // Text that shares only 7 characters, whatever their case, stays.
    expect(redact(`id ${key.toUpperCase().slice(5, 12)}`, s)).toBe(`id ${key.toUpperCase().slice(5, 12)}`);
  });

  it('catches the key JSON-escaped, in either hex case, mixed with literal characters', () => {
    const all = jsonEscape(KEY, () => true);
    const mixed = jsonEscape(KEY, (i) => i % 3 === 0);
    const upper = jsonEscape(KEY, (i) => i % 2 === 1, true);
    expect(mixed).toMatch(/^\\u0073k_\\u006c/);
    expect(upper).toMatch(/\\u005F/);
    for (const escaped of [all, mixed, upper, jsonEscape(KEY, (i) => i === 0)]) {
      const out = redact(`{"detail":"bad key ${escaped}","n":1}`, secrets);
      expect(out).toBe('{"detail":"bad key $TEMPMON_API_KEY","n":1}');
      expect(JSON.parse(out)).toEqual({ detail: 'bad key $TEMPMON_API_KEY', n: 1 });
    }
  });

  it('catches a literal fragment that an escape runs into', () => {
    // Decoded, this is U+4F9A then "2b7c"; as written, it shows "4f9a2b7c", a fragment of the key.
    expect(redact('{"a":"x\\u4f9a2b7c"}', secrets)).toBe('{"a":"$TEMPMON_API_KEY"}');
    // "%4f" is not a URL escape here: JSON shows "%4f9a2b7c" once the escaped 9 is decoded.
    expect(redact('{"a":"%4f\\u0039a2b7c"}', secrets)).toBe('{"a":"$TEMPMON_API_KEY"}');
  });

  it('catches the key URL-encoded, in either hex case, with + for a space', () => {
    const encoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect(redact(`location: /login?next=${encoded}&x=1`, secrets)).toBe('location: /login?next=$TEMPMON_API_KEY&x=1');
    expect(redact(`/login?next=${encoded.toUpperCase()}`, secrets)).toBe('/login?next=$TEMPMON_API_KEY');
    const spaced = { apiKey: 'my secret pass phrase', headerValues: [] };
    expect(redact(`q=${new URLSearchParams({ k: spaced.apiKey }).toString()}`, spaced)).toBe('q=k=$TEMPMON_API_KEY');
    expect(new URLSearchParams({ k: spaced.apiKey }).toString()).toContain('+');
    expect(redact(`q=${encodeURIComponent(spaced.apiKey)}`, spaced)).toBe('q=$TEMPMON_API_KEY');
  });

  it('catches the key in base64, standard and url-safe, at every offset inside a longer string', () => {
    const key = 'sk_live_?>?>4f9a2b7c~~'; // characters whose base64 uses + and /
    const s: Secrets = { apiKey: key, headerValues: [] };
    for (const prefix of ['', 'u', 'us', 'use', 'user:']) {
      const bytes = Buffer.from(`${prefix}${key}:trailing bytes`);
      for (const encoded of [bytes.toString('base64'), bytes.toString('base64url')]) {
        const out = redact(`Authorization: Basic ${encoded}`, s);
        expect(out, `${prefix} ${encoded}`).toBe('Authorization: Basic $TEMPMON_API_KEY');
      }
    }
    expect(Buffer.from(`us${key}`).toString('base64')).toMatch(/[+/]/);
  });

  it('catches a fragment of the key inside a base64 string', () => {
    const encoded = Buffer.from(`{"token":"${KEY.slice(0, 10)}"}`).toString('base64');
    expect(redact(`blob ${encoded} end`, secrets)).toBe('blob $TEMPMON_API_KEY end');
  });

  it('applies the same rules to long --header values', () => {
    const gateway: Secrets = { apiKey: 'k', headerValues: ['Bearer eyJhbGciOiJIUzI1NiJ9.payload'] };
    expect(redact('auth header was Bearer eyJhbGciOiJIUzI1NiJ9.payload; token eyJhbGciOi…', gateway)).toBe(
      'auth header was <redacted>; token <redacted>',
    );
  });

  it('keeps JSON valid and leaves no fragment, whatever mix of key pieces, escapes and separators a target sends', () => {
    const piece = fc.oneof(
      fc.integer({ min: 0, max: KEY.length - 1 }).chain((i) => fc.integer({ min: i + 1, max: KEY.length }).map((j) => KEY.slice(i, j))),
      fc.constantFrom('"', '\\', ' ', ',', ':', '=', '==', '\n', 'é', '%', '%7', 'u00', '\\u00', 'a', 'Z', '/', '+'),
    );
    /** JSON text of `s`, with the characters `escaped` picks written as \uXXXX in either case, as a hostile target may. */
    const encode = (s: string, escaped: (i: number) => number) =>
      `"${[...s]
        .map((c, i) => {
          const how = escaped(i);
          if (how === 0) return JSON.stringify(c).slice(1, -1);
          const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
          return `\\u${how === 1 ? hex : hex.toUpperCase()}`;
        })
        .join('')}"`;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1 }), (pieces, hows) => {
        const s = pieces.join('');
        const string = encode(s, (i) => hows[i % hows.length]!);
        const text = `{"v":${string},${string}:[${string},1]}`;
        const out = redact(text, secrets);
        expect(() => JSON.parse(out)).not.toThrow();
        expect(fragmentsIn(out)).toEqual([]);
        expect(fragmentsIn(JSON.stringify(JSON.parse(out)))).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a long text fast (16 MiB in well under a few seconds)', () => {
    const text = `${'{"id":"a1","name":"Rotterdam \\u00e9 cold store 50%"},'.repeat(330_000)}${KEY}`;
    expect(text.length).toBeGreaterThan(16_000_000);
    const started = performance.now();
    const out = redact(text, secrets);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(out.endsWith(',$TEMPMON_API_KEY')).toBe(true);
  });
});

describe('redactValue', () => {
  it('redacts every string and object key of nested JSON, keeping order, types and structure', () => {
    const value = {
      id: 'a1',
      n: 3,
      ok: true,
      none: null,
      nested: [{ deep: [`key ${KEY}`, 1] }, `...${KEY.slice(2, 12)}`],
      [`by-${KEY}`]: 'v',
      escaped: '\\u0073k_live_4f9a2b7c1d3e',
    };
    const out = redactValue(value, secrets) as Record<string, unknown>;
    expect(out).toEqual({
      id: 'a1',
      n: 3,
      ok: true,
      none: null,
      nested: [{ deep: ['key $TEMPMON_API_KEY', 1] }, '$TEMPMON_API_KEY'],
      $TEMPMON_API_KEY: 'v',
      escaped: '$TEMPMON_API_KEY',
    });
    expect(Object.keys(out)).toEqual(['id', 'n', 'ok', 'none', 'nested', '$TEMPMON_API_KEY', 'escaped']);
    expect(fragmentsIn(JSON.stringify(out))).toEqual([]);
    // The input is not modified.
    expect((value.nested[0] as { deep: string[] }).deep[0]).toBe(`key ${KEY}`);
  });

  it('keeps a "__proto__" key an own property and survives deep nesting', () => {
    const parsed = JSON.parse(`{"__proto__":{"x":"${KEY}"}}`) as unknown;
    const out = redactValue(parsed, secrets) as Record<string, unknown>;
    expect(Object.getOwnPropertyNames(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":"$TEMPMON_API_KEY"}}');
    const deep = JSON.parse(`${'['.repeat(50_000)}"${KEY}"${']'.repeat(50_000)}`) as unknown;
    let bottom = redactValue(deep, secrets);
    while (Array.isArray(bottom)) bottom = bottom[0];
    expect(bottom).toBe('$TEMPMON_API_KEY');
  });

  it('returns the value itself when there is nothing to redact', () => {
    const value = { a: ['b'] };
    expect(redactValue(value, { headerValues: [] })).toBe(value);
  });
});
