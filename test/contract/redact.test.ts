import { describe, expect, it } from 'vitest';
import { redact } from '../../src/contract/redact.ts';

describe('redact', () => {
  it('replaces a key everywhere, and header values with <redacted>', () => {
    const secrets = { apiKey: 'sk_live_abcdef123', headerValues: ['gateway-token-9'] };
    expect(redact('a sk_live_abcdef123 b xsk_live_abcdef123x gateway-token-9', secrets)).toBe(
      'a $TEMPMON_API_KEY b x$TEMPMON_API_KEYx <redacted>',
    );
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    expect(redact('token-abc-123-long', { apiKey: 'token-abc-123', headerValues: ['token-abc-123-long'] })).toBe('<redacted>');
  });

  it('replaces a short key only where it stands alone', () => {
    const secrets = { apiKey: 'k.1', headerValues: [] };
    expect(redact('key k.1 in "k.1" not kk.1 or k.12; link', secrets)).toBe('key $TEMPMON_API_KEY in "$TEMPMON_API_KEY" not kk.1 or k.12; link');
  });
});
