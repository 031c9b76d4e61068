import { CliError } from './cli-error.ts';

/** An HTTP field name (RFC 9110 token). */
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses a `--header 'Name: value'` option into its name and value (the value trimmed of surrounding
 * whitespace; it may be empty). A header that does not parse is a {@link CliError} whose message says
 * what is wrong without quoting the header: the value is often a secret (`Authorization: Bearer ...`)
 * and a mistyped `Authorization Bearer xyz` has it right after the first space.
 */
export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  if (colon < 0) throw invalid('a header without a colon');
  const name = raw.slice(0, colon);
  if (name.trim() === '') throw invalid('no name before the colon');
  if (name !== name.trim()) throw invalid('whitespace around the name');
  // The name is shown only when it is a well-formed name: anything else may be a secret typed in the wrong place.
  if (!NAME.test(name)) throw invalid('a name with characters a header name cannot have');
  const value = raw.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw invalid(`a line break or NUL in the value of ${name}`);
  return [name, value];
}

const invalid = (what: string) => new CliError(`--header must look like 'Name: value' (got ${what})`);
