import { once } from 'node:events';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { datasetChunks } from '../fixtures/dataset-chunks.ts';
import type { DatasetOptions } from '../fixtures/generate-dataset.ts';
import { MAX_DATA_FILE_BYTES, mib } from '../fixtures/read-data-text.ts';
import { systemError } from '../shared/system-error.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { CliError, cliFail } from './cli-error.ts';
import { countsOf } from '../fixtures/collections.ts';
import { flagHelp } from '../options/flag-help.ts';
import { readDataset } from '../options/serve-options.ts';
import { commandFlags, fixturesFlags } from '../options/command-flags.ts';
import { parseFlags, peekFlag } from '../options/parse-flags.ts';

/** Help of `tempmon fixtures`, with a count option per listing of the spec. */
const fixturesHelp = (document: OpenAPIObject): string => `Usage: tempmon fixtures [options]

Writes a generated dataset as a data file that \`tempmon serve --data\` accepts.
The same options always give the same bytes.

Options:
${flagHelp(fixturesFlags(document), 24)}`;

/** About how many bytes the data file will have, from the first records of each collection (a few hundred). */
function estimatedBytes(document: OpenAPIObject, options: DatasetOptions): number {
  const counts = countsOf(document, options.counts);
  const keys = Object.keys(counts);
  const none = Object.fromEntries(keys.map((key) => [key, 0]));
  const bytes = (sample: Record<string, number>) => [...datasetChunks(document, { ...options, counts: sample })].join('').length;
  const empty = bytes(none);
  return keys.reduce((total, key) => {
    const n = Math.min(counts[key]!, SAMPLE);
    return n === 0 ? total : total + ((bytes({ ...none, [key]: n }) - empty) / n) * counts[key]!;
  }, empty);
}
const SAMPLE = 300;

/** Runs `tempmon fixtures`: the file is written as it is generated, in flat memory whatever its size. */
export async function fixturesCommand(
  args: readonly string[],
  log: (line: string) => void = console.log,
  warn: (line: string) => void = console.error,
): Promise<void> {
  // The spec first: its listings are flags (a count each).
  const { document } = loadSpec(peekFlag(args, 'spec'));
  const values = parseFlags(args, fixturesFlags(document), 'fixtures', cliFail, () => commandFlags(document));
  if (values.help) {
    log(fixturesHelp(document));
    return;
  }
  const options = readDataset(document, values, cliFail);
  const counts = Object.entries(countsOf(document, options.counts));
  const described = `seed ${options.seed}: ${counts.map(([key, n]) => `${n} ${key}`).join(', ')}`;
  // What serve --data would refuse is said before the wait, with what serves the same records without a file.
  const instead = `tempmon serve --seed ${options.seed} ${counts.map(([key, n]) => `--${key} ${n}`).join(' ')} serves the same records without a file`;
  const estimate = estimatedBytes(document, options);
  if (estimate > MAX_DATA_FILE_BYTES)
    warn(
      `tempmon: note: this data file will be about ${mib(estimate, 1)}, over the ${mib(MAX_DATA_FILE_BYTES, 1)} serve --data reads; ${instead}`,
    );
  if (typeof values.out !== 'string') {
    for (const chunk of datasetChunks(document, options)) if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    return;
  }
  let written = 0;
  try {
    const fd = openSync(values.out, 'w');
    try {
      for (const chunk of datasetChunks(document, options)) written += writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new CliError(`cannot write ${values.out}: ${systemError(error)}`);
  }
  log(`wrote ${values.out} (${mib(written, 1)}; ${described})`);
  if (written > MAX_DATA_FILE_BYTES && estimate <= MAX_DATA_FILE_BYTES)
    warn(`tempmon: note: ${values.out} is over the ${mib(MAX_DATA_FILE_BYTES, 1)} serve --data reads; ${instead}`);
}
