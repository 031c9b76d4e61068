import { describe, expect, it } from 'vitest';
import { carriedBy, exposure, isCredentialHeader } from '../../../src/contract/client/secret-exposure.ts';

const KEY = 'sk_live_4f9a2b7c1d3e5a6b';
const credentials = { apiKey: KEY, headerValues: ['gw-secret-9921'] };
const body = (text: string, carried: string[] = []) => exposure({ body: text, headers: '' }, credentials, carried);

describe('a credential in an answer', () => {
  it('finds the key, or 8 of its characters, that the request did not carry: a leak', () => {
    expect(body(`{"detail":"expected ${KEY}"}`, ['wrong'])).toEqual({ echo: false, where: 'body' });
    expect(body(`{"hint":"starts ${KEY.slice(3, 11)}"}`)).toEqual({ echo: false, where: 'body' });
    expect(body('{"detail":"upstream token gw-secret-9921 rejected"}')).toEqual({ echo: false, where: 'body' });
    expect(exposure({ body: '[]', headers: `x-debug-key\n${KEY}` }, credentials, [])).toEqual({ echo: false, where: 'headers' });
  });

  it('calls an echo of what the request itself carried an echo, and a look-alike beside the real key still a leak', () => {
    const alike = `X${KEY.slice(1)}`;
    expect(body(`{"detail":"key ${alike} is not valid"}`, [alike])).toEqual({ echo: true, where: 'body' });
    expect(body(`{"detail":"key ${alike} is not valid; expected ${KEY}"}`, [alike])).toEqual({ echo: false, where: 'body' });
    expect(body(`{"you sent":"${encodeURIComponent(KEY)}"}`, [KEY])).toEqual({ echo: true, where: 'body' });
  });

  it("calls the request's own URL in a problem's instance an echo, however the query wrote the key", () => {
    const key = 'tmk_live.7Hq2-Zx9/Wp4+Rv8~Lc3Ne6Ya1Ks5';
    const url = new URL('http://t/alert');
    url.searchParams.set('x-api-key', key);
    const carried = carriedBy({}, url);
    const own = { apiKey: key, headerValues: [] };
    const instance = (written: string) => exposure({ body: `{"status":401,"instance":${written}}`, headers: '' }, own, carried);
    // As the query string writes it (%2F, %2B, %7E), as encodeURIComponent does, JSON-escaped with \/ (PHP's way).
    expect(instance(JSON.stringify(`${url.pathname}${url.search}`))).toEqual({ echo: true, where: 'body' });
    expect(instance(JSON.stringify(`/alert?x-api-key=${encodeURIComponent(key)}`))).toEqual({ echo: true, where: 'body' });
    expect(instance(JSON.stringify(`/alert?x-api-key=${key}`).replaceAll('/', '\\/'))).toEqual({ echo: true, where: 'body' });
    // The key whole beside it is what the request carried too; a fragment of it where the request carried none: a leak.
    expect(instance(JSON.stringify(`${url.search} expected ${key}`))).toEqual({ echo: true, where: 'body' });
    expect(exposure({ body: `{"hint":"${key.slice(5, 14)}"}`, headers: '' }, own, carriedBy({}, new URL('http://t/alert')))).toEqual({
      echo: false,
      where: 'body',
    });
  });

  it('finds nothing in an ordinary answer', () => {
    expect(body('[{"id":"a1","note":"sk_live is a prefix"}]')).toBeUndefined();
    expect(exposure({ body: `{"k":"${KEY}"}`, headers: '' }, { headerValues: [] }, [])).toBeUndefined();
  });

  it('counts only credential headers among --header', () => {
    expect(['Authorization', 'cookie', 'X-Api-Key', 'x-gateway-token'].map(isCredentialHeader)).toEqual([true, true, true, true]);
    expect(['X-Tenant', 'Accept-Language', 'x-keyring'].map(isCredentialHeader)).toEqual([false, false, false]);
  });
});
