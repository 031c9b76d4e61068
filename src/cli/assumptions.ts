import { readFileSync, writeFileSync } from 'node:fs';
import { assumptionsTable, withAssumptionsTable } from '../spec/assumptions-table.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { flagHelp } from '../options/flag-help.ts';
import { ASSUMPTIONS_FLAGS } from '../options/command-flags.ts';
import { everyCommandFlags } from './every-command-flags.ts';
import { parseFlags } from '../options/parse-flags.ts';
import { CliError, cliFail } from './cli-error.ts';
import { systemError } from '../shared/system-error.ts';

/** Help of `tempmon assumptions`. */
export const ASSUMPTIONS_HELP = `Usage: tempmon assumptions [options]

Prints, as a Markdown table, every decision the spec takes where the interface document is silent
(each object marked x-assumed in spec/openapi.yaml).

Options:
${flagHelp(ASSUMPTIONS_FLAGS, 24)}`;

/** Runs `tempmon assumptions`. */
export function assumptionsCommand(args: readonly string[], log: (line: string) => void = console.log): void {
  const values = parseFlags(args, ASSUMPTIONS_FLAGS, 'assumptions', cliFail, everyCommandFlags(args));
  if (values.help) {
    log(ASSUMPTIONS_HELP);
    return;
  }
  const { document } = loadSpec();
  const file = typeof values.readme === 'string' ? values.readme : undefined;
  if (file === undefined) {
    log(assumptionsTable(document));
    return;
  }
  let readme: string;
  try {
    readme = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${systemError(error)}`);
  }
  try {
    writeFileSync(file, withAssumptionsTable(readme, document));
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`);
  }
  log(`updated the assumptions table in ${file}`);
}
