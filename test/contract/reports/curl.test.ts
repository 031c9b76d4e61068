import { describe, expect, it } from 'vitest';
import { toCurl } from '../../../src/contract/reports/curl.ts';

describe('toCurl', () => {
  it('writes an empty header value as name; (curl drops "name:" with no value)', () => {
    const command = toCurl({ method: 'GET', url: 'http://target.test/alert', headers: { 'x-api-key': '' } });
    expect(command).toBe("curl -i -H 'x-api-key;' 'http://target.test/alert'");
    expect(command).not.toContain("'x-api-key: '");
  });

  it('double-quotes the key placeholder for the shell to expand, single-quotes the rest', () => {
    const command = toCurl({
      method: 'GET',
      url: "http://target.test/alert?search=it's",
      headers: { 'x-gateway-token': '<redacted>', 'x-api-key': '$TEMPMON_API_KEY', accept: 'application/json' },
    });
    expect(command).toBe(
      `curl -i -H 'x-gateway-token: <redacted>' -H "x-api-key: $TEMPMON_API_KEY" -H 'accept: application/json' 'http://target.test/alert?search=it'\\''s'`,
    );
  });

  it('names a method other than GET', () => {
    expect(toCurl({ method: 'OPTIONS', url: 'http://target.test/alert', headers: {} })).toBe(
      "curl -i -X OPTIONS 'http://target.test/alert'",
    );
  });
});
