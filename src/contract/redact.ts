/** How the API key is written wherever the kit shows a request: an environment variable to set. */
export const API_KEY_PLACEHOLDER = '$TEMPMON_API_KEY';
/** How the values of extra `--header`s are written: they may be gateway secrets too. */
export const HEADER_PLACEHOLDER = '<redacted>';

/** The values that must never appear in any output. */
export interface Secrets {
  readonly apiKey?: string;
  readonly headerValues: readonly string[];
}

/**
 * Replaces every occurrence of each secret in `text`. Applied when an exchange is recorded and again to
 * every report, so a key echoed back by a target cannot reach an output either.
 */
export function redact(text: string, secrets: Secrets): string {
  // Longest first, so a secret containing another is replaced whole.
  const pairs: [string, string][] = [
    ...(secrets.apiKey ? [[secrets.apiKey, API_KEY_PLACEHOLDER] as [string, string]] : []),
    ...secrets.headerValues.filter((v) => v.length > 0).map((v): [string, string] => [v, HEADER_PLACEHOLDER]),
  ].sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [secret, placeholder] of pairs) out = out.split(secret).join(placeholder);
  return out;
}
