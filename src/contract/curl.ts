import type { RecordedRequest } from './types.ts';

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * A shell command that sends the same request. The key is already `$TEMPMON_API_KEY` in a recorded
 * request, so that header is double-quoted for the shell to expand it.
 */
export function toCurl(request: RecordedRequest): string {
  const parts = ['curl', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  for (const [name, value] of Object.entries(request.headers)) {
    parts.push('-H', value.includes('$TEMPMON_API_KEY') ? `"${name}: ${value}"` : quote(`${name}: ${value}`));
  }
  parts.push(quote(request.url));
  return parts.join(' ');
}
