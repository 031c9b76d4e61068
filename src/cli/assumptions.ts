import { readFileSync, writeFileSync } from 'node:fs';
import { assumptionsTable, withAssumptionsTable } from '../spec/assumptions-table.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { CliError, parseOptions } from './cli-error.ts';
import { systemError } from '../shared/system-error.ts';

/** Help of `tempmon assumptions`. */
export const ASSUMPTIONS_HELP = `Usage: tempmon assumptions [options]

Prints, as a Markdown table, every decision the spec takes where the interface document is silent
(each object marked x-assumed in spec/openapi.yaml).

Options:
  --readme FILE         rewrite the table between the assumptions markers of FILE instead
  -h, --help            show this help`;

/** Runs `tempmon assumptions`. */
export function assumptionsCommand(args: readonly string[], log: (line: string) => void = console.log): void {
  const values = parseOptions('assumptions', args, { readme: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    log(ASSUMPTIONS_HELP);
    return;
  }
  const { document } = loadSpec();
  if (values.readme === undefined) {
    log(assumptionsTable(document));
    return;
  }
  let readme: string;
  try {
    readme = readFileSync(values.readme, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${values.readme}: ${systemError(error)}`);
  }
  try {
    writeFileSync(values.readme, withAssumptionsTable(readme, document));
  } catch (error) {
    throw new CliError(`${values.readme}: ${(error as Error).message}`);
  }
  log(`updated the assumptions table in ${values.readme}`);
}
