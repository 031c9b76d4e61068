import { parseArgs, type ParseArgsConfig } from 'node:util';
import { integerOption as integerIn, type OptionFailure } from '../options/option-parsers.ts';

/** Why the command could not run (bad arguments, bad data, port taken): one line on stderr, exit code 2. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/**
 * `util.parseArgs` in strict mode, with its verbose errors turned into one-line usage errors that
 * name the offending option and the help to read.
 */
/** Parsed option values by name, typed from the options' config. */
export type OptionValues<T extends Options> = ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>['values'];
type Options = NonNullable<ParseArgsConfig['options']>;

export function parseOptions<T extends Options>(command: string, args: readonly string[], options: T): OptionValues<T> {
  // `--seed -1`: a negative number after an option that takes a value is that value, so its own check can say
  // what is wrong with it (parseArgs would take -1 for an option, and say only that --seed has no value).
  const joined: string[] = [];
  for (const arg of args) {
    const previous = joined.at(-1);
    const takesValue = previous?.startsWith('--') && !previous.includes('=') && options[previous.slice(2)]?.type === 'string';
    if (takesValue && /^-\d/.test(arg)) joined[joined.length - 1] = `${previous}=${arg}`;
    else joined.push(arg);
  }
  try {
    return parseArgs({ args: joined, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
    const what =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `unknown option ${option}`
        : code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && message.includes('ambiguous')
          ? `option ${option} needs a value (write ${option}=-N for a value starting with -)`
          : code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
            ? `option ${option} needs a value`
            : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
              ? `unexpected argument ${/'([^']+)'/.exec(message)?.[1] ?? ''}`
              : message.split('\n')[0];
    throw new CliError(`${what} (see tempmon ${command} --help)`);
  }
}

/** An option's value as an integer in [min, max], refused with a CliError (see option-parsers.ts). */
export const integerOption = (name: string, value: string, min: number, max: number): number => integerIn(name, value, min, max, cliFail);

/** A refusal of the CLI's (see OptionFailure). */
export const cliFail: OptionFailure = (message) => new CliError(message);
