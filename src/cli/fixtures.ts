import { writeFileSync } from 'node:fs';
import { generateDataset } from '../fixtures/generate-dataset.ts';
import { serializeDataset } from '../fixtures/serialize-dataset.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { CliError, parseOptions } from './cli-error.ts';
import { countsOf } from '../fixtures/collections.ts';
import { datasetCli } from './dataset-options.ts';

/** Help of `tempmon fixtures`, with a count option per listing of the spec (see datasetCli). */
const fixturesHelp = (datasetHelp: string): string => `Usage: tempmon fixtures [options]

Writes a generated dataset as a data file that \`tempmon serve --data\` accepts.
The same options always give the same bytes.

Options:
${datasetHelp}
  --out FILE            write to FILE instead of standard output
  -h, --help            show this help`;

/** Runs `tempmon fixtures`. */
export function fixturesCommand(args: readonly string[], log: (line: string) => void = console.log): void {
  const { document } = loadSpec();
  const dataset = datasetCli(document);
  const values = parseOptions('fixtures', args, {
    ...dataset.options,
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    log(fixturesHelp(dataset.help));
    return;
  }
  const options = dataset.read(values);
  const text = serializeDataset(generateDataset(document, options));
  if (typeof values.out !== 'string') {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(values.out, text);
  } catch (error) {
    throw new CliError(`cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const counts = Object.entries(countsOf(document, options.counts)).map(([key, n]) => `${n} ${key}`);
  log(`wrote ${values.out} (seed ${options.seed}: ${counts.join(', ')})`);
}
