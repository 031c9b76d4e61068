// The --target of the commands that talk to a deployment (contract, proxy), checked once for both.
import { CliError } from './cli-error.ts';

/**
 * `target` as given, when it is an http(s) URL with a host; else the one-line error the CLI prints.
 *
 * @example
 * const target = targetUrl(values.target, 'contract'); // throws CliError for 'localhost:4010'
 */
export function targetUrl(target: string | undefined, command: string): string {
  if (!target) throw new CliError(`--target URL is required (see tempmon ${command} --help)`);
  if (!/^https?:\/\/[^/]/.test(target) || !URL.canParse(target)) {
    // A host and port without a scheme (`127.0.0.1:4010`, `localhost:4010/v1`) most likely meant http.
    const meant = !/^[a-z][a-z\d+.-]*:\/\//i.test(target) && URL.canParse(`http://${target}`) ? `http://${target}` : undefined;
    throw new CliError(`--target must be an http(s) URL, got ${JSON.stringify(target)}${meant ? `; did you mean ${meant}?` : ''}`);
  }
  return target;
}
