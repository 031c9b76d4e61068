import { describe, expect, it } from 'vitest';
import { keyInText, missingKeys, wrongKeys } from '../../../src/contract/material/wrong-keys.ts';

const KEY = 'tempmon-dev-key';

describe('credentials as a grammar', () => {
  it('an error for every key that is not the key: edits first, middle and last, cuts, one case, a look-alike, a swap', () => {
    const variants = wrongKeys(KEY, 5, 8);
    const labels = variants.map((v) => v.label).join('\n');
    for (const part of [
      'first character edited',
      'middle character',
      'last character edited',
      'cut to half',
      'cut to its first',
      'in the other case',
      'Unicode look-alike',
      'swapped',
    ])
      expect(labels).toContain(part);
    for (const variant of variants) {
      expect(variant.apiKey).not.toBe(KEY);
      expect(variant.severity).toBe(variant.apiKey!.includes(KEY) ? 'warning' : 'error');
    }
    // The look-alike goes as UTF-8 bytes, one per character of the header value.
    const lookalike = variants.find((v) => v.label.includes('look-alike'))!.apiKey!;
    expect(Buffer.from(lookalike, 'latin1').toString('utf8')).toMatch(/^[\s\S]*[асеорхуі][\s\S]*$/);
    expect([...lookalike].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
  });

  it('a warning for the whole key inside other text, each holding the key', () => {
    const variants = keyInText(KEY, 5);
    expect(variants.map((v) => v.apiKey!.replace(KEY, '<key>'))).toEqual(
      expect.arrayContaining(['Bearer <key>', '<key>;x', `<key>${KEY}`]),
    );
    for (const variant of variants) {
      expect(variant.severity).toBe('warning');
      expect(variant.apiKey).toContain(KEY);
    }
  });

  it('a warning for the right key where the interface does not put it: the query, a cookie named after the header, generic cookies', () => {
    const elsewhere = (header: string, key: string) =>
      missingKeys(header, key, 5)
        .filter((v) => v.query || v.headers?.cookie)
        .map((v) => ({ query: v.query, cookie: v.headers?.cookie, severity: v.severity, noHeader: v.apiKey === null }));
    expect(elsewhere('x-gateway-key', KEY)).toEqual([
      { query: { 'x-gateway-key': KEY }, cookie: undefined, severity: 'warning', noHeader: true },
      { query: undefined, cookie: `x-gateway-key=${KEY}`, severity: 'warning', noHeader: true },
      { query: undefined, cookie: `api_key=${KEY}; token=${KEY}; session=${KEY}`, severity: 'warning', noHeader: true },
    ]);
    // A key with characters a cookie cannot hold goes URL-encoded, as servers decode it.
    expect(elsewhere('x-api-key', 'a;b c')[1]!.cookie).toBe('x-api-key=a%3Bb%20c');
    // No key to put elsewhere: no such variant.
    expect(missingKeys('x-api-key', undefined, 5).filter((v) => v.query || v.headers?.cookie)).toEqual([]);
  });
});
