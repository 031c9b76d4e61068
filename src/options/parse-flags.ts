// Command-line flags read without node:util, which not every runtime has in full, so that `tempmon serve` and
// the runtime entries read the same flags with the same words. No node: import: a Worker bundles this.
import type { OptionFailure } from './option-parsers.ts';
import type { FlagShape } from './flag-shape.ts';
import { unknownOption } from './unknown-option.ts';

/** Parsed flags: a string (or strings, for a repeatable flag) per flag given, `true` per switch given. */
export type FlagValues = Readonly<Record<string, string | readonly string[] | true | undefined>>;

/** The text given to a valued flag, if any (a switch or a repeated flag has none). */
export const flagText = (values: FlagValues, name: string): string | undefined =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

/**
 * Reads `--name value`, `--name=value`, switches and short aliases. A value may start with `-` followed by a
 * digit (`--seed -1`), so that the flag's own check can say what is wrong with it; another argument starting
 * with `-` is taken for a forgotten value. Every refusal ends with where to look: `(see tempmon serve --help)`; an
 * unknown option says what was most likely meant, an option of this command or of another (`others`, by command,
 * asked for only then).
 *
 * @example
 * parseFlags(['--port=0', '--api-key', 'a'], [{ name: 'port', value: 'N' }, { name: 'api-key', value: 'KEY', multiple: true }], 'serve', fail);
 * // { port: '0', 'api-key': ['a'] }
 */
export function parseFlags(
  args: readonly string[],
  flags: readonly FlagShape[],
  command: string,
  fail: OptionFailure,
  others: () => Readonly<Record<string, readonly FlagShape[]>> = () => ({}),
): FlagValues {
  const refuse = (what: string) => fail(`${what} (see tempmon ${command} --help)`);
  const byName = new Map(flags.map((flag) => [flag.name, flag]));
  const byShort = new Map(flags.filter((flag) => flag.short).map((flag) => [flag.short!, flag]));
  const values: Record<string, string | string[] | true> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      if (i + 1 < args.length) throw refuse(`unexpected argument ${args[i + 1]}`);
      break;
    }
    const long = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    const short = /^-([^-])$/.exec(arg);
    if (!long && !short) throw refuse(`unexpected argument ${arg}`);
    const flag = long ? byName.get(long[1]!) : byShort.get(short![1]!);
    if (!flag) throw refuse(long ? unknownOption(long[1]!, flags, command, otherCommands(command, others())) : `unknown option ${arg}`);
    const shown = `--${flag.name}`;
    if (!flag.value) {
      if (long?.[2] !== undefined) throw refuse(`option ${shown} takes no value`);
      values[flag.name] = true;
      continue;
    }
    let value = long?.[2];
    if (value === undefined) {
      const next = args[i + 1];
      if (next === undefined) throw refuse(`option ${shown} needs a value`);
      if (next.startsWith('-') && !/^-\d/.test(next))
        throw refuse(`option ${shown} needs a value (write ${shown}=-N for a value starting with -)`);
      value = next;
      i += 1;
    }
    if (flag.multiple) values[flag.name] = [...((values[flag.name] as string[] | undefined) ?? []), value];
    else values[flag.name] = value;
  }
  return values;
}

/**
 * The value of `--name` in `args` before they are parsed (the last one given), for a flag that decides what the
 * other flags are: `--spec FILE` names the listings whose counts are flags.
 *
 * @example
 * peekFlag(['--alerts', '5', '--spec=other.yaml'], 'spec'); // 'other.yaml'
 */
export function peekFlag(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === `--${name}`) value = args[i + 1];
    else if (args[i]!.startsWith(`--${name}=`)) value = args[i]!.slice(name.length + 3);
  }
  return value;
}

/** The flags of every command but `command`. */
const otherCommands = (command: string, all: Readonly<Record<string, readonly FlagShape[]>>) =>
  Object.fromEntries(Object.entries(all).filter(([name]) => name !== command));
