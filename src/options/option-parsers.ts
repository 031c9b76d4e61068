// Option values parsed the same way by `tempmon serve` (and the other commands) and by the runtime entries
// (src/runtimes/), so a refusal reads the same everywhere. No node: import: a Worker bundles this.
import { DEFAULT_API_KEY } from '../server/create-app.ts';

/** Makes the error a refusal throws: CliError for the CLI, RuntimeOptionError for a runtime entry. */
export type OptionFailure = (message: string) => Error;

/** A plain Error: the default, where the caller has no error class of its own. */
export const plainFailure: OptionFailure = (message) => new Error(message);

/** An option's value as an integer in [min, max]. */
export function integerOption(name: string, value: string, min: number, max: number, fail: OptionFailure = plainFailure): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw fail(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** The keys accepted, and where they came from (what a banner may say of them). */
export interface ApiKeys {
  readonly keys: readonly string[];
  /** `default`: only the documented development key; a key chosen is never printed. */
  readonly from: 'default' | 'flags' | 'environment';
}

/**
 * The keys from `--api-key` (repeatable), else TEMPMON_API_KEY, else the documented development key. An
 * empty key, or TEMPMON_API_KEY set but empty, is refused: it would accept nothing, or surprise.
 */
export function apiKeysOption(
  flags: readonly string[] | undefined,
  environment: string | undefined,
  fail: OptionFailure = plainFailure,
): ApiKeys {
  if (flags?.some((key) => key.trim() === '')) throw fail('--api-key must not be empty');
  if (!flags && environment !== undefined && environment.trim() === '') {
    throw fail(`TEMPMON_API_KEY is set but empty: set it to a key, or unset it to accept ${DEFAULT_API_KEY}`);
  }
  const keys = flags ? [...flags] : environment === undefined ? [DEFAULT_API_KEY] : [environment];
  const from = keys.every((key) => key === DEFAULT_API_KEY) ? 'default' : flags ? 'flags' : 'environment';
  return { keys, from };
}
