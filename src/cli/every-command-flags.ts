import type { FlagShape } from '../options/flag-shape.ts';
import { commandFlags } from '../options/command-flags.ts';
import { peekFlag } from '../options/parse-flags.ts';
import { loadSpec } from '../spec/load-spec.ts';

/**
 * Every command's flags, for the hint of an unknown option in `args` (see parseFlags): the count flags from the
 * spec `args` name, or the kit's when that one cannot be read. Loaded only when asked for.
 *
 * @example
 * parseFlags(args, PROXY_FLAGS, 'proxy', cliFail, everyCommandFlags(args));
 */
export const everyCommandFlags = (args: readonly string[]) => (): Readonly<Record<string, readonly FlagShape[]>> => {
  const named = peekFlag(args, 'spec');
  try {
    return commandFlags(loadSpec(named).document);
  } catch {
    return commandFlags(loadSpec().document);
  }
};
