import { COLLECTIONS } from '../fixtures/collections.ts';
import { DEFAULT_DATASET, type DatasetOptions } from '../fixtures/generate-dataset.ts';
import { integerOption } from './cli-error.ts';

const KEYS = Object.values(COLLECTIONS).map((collection) => collection.key);
const MAX_RECORDS = 10_000_000;

/** The options that choose generated data, shared by `serve` and `fixtures`: `--seed` and a count per collection. */
export const DATASET_OPTIONS: Record<string, { type: 'string' }> = {
  seed: { type: 'string' },
  ...Object.fromEntries(KEYS.map((key) => [key, { type: 'string' as const }])),
};

/** Help lines for {@link DATASET_OPTIONS}. */
export const DATASET_HELP = [
  `  --seed N              seed of the generated data (default ${DEFAULT_DATASET.seed})`,
  ...KEYS.map((key) => `  ${`--${key} N`.padEnd(21)} number of ${key} to generate (default ${DEFAULT_DATASET.counts[key] ?? 0})`),
].join('\n');

/** Seed and counts from parsed option values, defaults filled in. */
export function datasetOptions(values: Record<string, unknown>): DatasetOptions {
  const read = (name: string, fallback: number, max: number) =>
    typeof values[name] === 'string' ? integerOption(name, values[name], 0, max) : fallback;
  return {
    seed: read('seed', DEFAULT_DATASET.seed, 2 ** 32 - 1),
    counts: Object.fromEntries(KEYS.map((key) => [key, read(key, DEFAULT_DATASET.counts[key] ?? 0, MAX_RECORDS)])),
  };
}

/** Whether any dataset option was given (they cannot be combined with --data). */
export const hasDatasetOption = (values: Record<string, unknown>): boolean =>
  Object.keys(DATASET_OPTIONS).some((name) => values[name] !== undefined);
