import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/cli-error.ts';
import { parseHeader } from '../../src/cli/parse-header.ts';

/** The CliError `raw` is refused with. */
function refusal(raw: string): CliError {
  try {
    parseHeader(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`);
}

describe('parseHeader', () => {
  it('parses Name: value, trimming the value, keeping colons inside it', () => {
    expect(parseHeader('X-Gateway-Token: abc')).toEqual(['X-Gateway-Token', 'abc']);
    expect(parseHeader('Authorization:Bearer a:b:c  ')).toEqual(['Authorization', 'Bearer a:b:c']);
    expect(parseHeader('x-empty:')).toEqual(['x-empty', '']);
  });

  it('refuses a header without a colon without echoing any of its value', () => {
    const error = refusal('Authorization Bearer xyz-secret-123');
    expect(error.message).toBe("--header must look like 'Name: value' (got a header without a colon)");
    for (const part of ['Bearer', 'xyz', 'secret', '123']) expect(error.message).not.toContain(part);
  });

  it('refuses names that are not header names, quoting nothing typed', () => {
    const cases: [string, RegExp][] = [
      [': s3cr3t-token', /no name before the colon/],
      [' Authorization: secret-1', /whitespace around the name/],
      ['Bearer sk_live_abc: x', /whitespace around the name|characters a header name cannot have/],
      ['sk/live/abc:xyz', /characters a header name cannot have/],
    ];
    for (const [raw, why] of cases) {
      const { message } = refusal(raw);
      expect(message).toMatch(why);
      for (const part of ['s3cr3t', 'secret', 'sk_live', 'sk/live', 'xyz']) expect(message).not.toContain(part);
    }
  });

  it('refuses a line break in the value, naming only the header', () => {
    const { message } = refusal('X-Token: abc\r\nX-Other: secret');
    expect(message).toBe("--header must look like 'Name: value' (got a line break or NUL in the value of X-Token)");
  });
});
