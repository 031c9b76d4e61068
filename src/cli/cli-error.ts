import { integerOption as integerIn, type OptionFailure } from '../options/option-parsers.ts';

/** Why the command could not run (bad arguments, bad data, port taken): one line on stderr, exit code 2. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/** An option's value as an integer in [min, max], refused with a CliError (see option-parsers.ts). */
export const integerOption = (name: string, value: string, min: number, max: number): number => integerIn(name, value, min, max, cliFail);

/** A refusal of the CLI's (see OptionFailure). */
export const cliFail: OptionFailure = (message) => new CliError(message);
