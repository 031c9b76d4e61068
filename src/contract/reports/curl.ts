import { API_KEY_PLACEHOLDER } from '../../secrets/redact.ts';
import type { RecordedRequest } from '../types.ts';

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * A shell command that sends the same request. The key is already `$TEMPMON_API_KEY` in a recorded
 * request, so that header is double-quoted for the shell to expand it. A header with an empty value is
 * written `-H 'name;'`: curl drops a header written `name:` with nothing after the colon, which would
 * turn "an empty key was accepted" into "no key was accepted" when the command is pasted.
 */
export function toCurl(request: RecordedRequest): string {
  const parts = ['curl', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  for (const [name, value] of Object.entries(request.headers)) {
    const header =
      value === '' ? quote(`${name};`) : value.includes(API_KEY_PLACEHOLDER) ? `"${name}: ${value}"` : quote(`${name}: ${value}`);
    parts.push('-H', header);
  }
  parts.push(quote(request.url));
  return parts.join(' ');
}
