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
const SHORT_SECRET = 8;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces every occurrence of each secret in `text`. Applied when an exchange is recorded and again to
 * every report, so a key echoed back by a target cannot reach an output either. A very short secret
 * (a test key such as `k`) is replaced only as a whole token: replacing every letter k would wreck the
 * report while protecting nothing.
 */
export function redact(text: string, secrets: Secrets): string {
  // Longest first, so a secret containing another is replaced whole.
  const pairs: [string, string][] = [
    ...(secrets.apiKey ? [[secrets.apiKey, API_KEY_PLACEHOLDER] as [string, string]] : []),
    ...secrets.headerValues.filter((v) => v.length > 0).map((v): [string, string] => [v, HEADER_PLACEHOLDER]),
  ].sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [secret, placeholder] of pairs) {
    out =
      secret.length >= SHORT_SECRET
        ? out.split(secret).join(placeholder)
        : out.replace(new RegExp(`(?<![\\w-])${escapeRegExp(secret)}(?![\\w-])`, 'g'), () => placeholder);
  }
  return out;
}
