import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { collectionsOf } from '../fixtures/collections.ts';
import { DEFAULT_DATASET } from '../fixtures/generate-dataset.ts';
import type { DatasetOptions } from '../spec/records.ts';
import { integerOption } from './cli-error.ts';

const MAX_RECORDS = 10_000_000;

/**
 * The options that choose generated data, shared by `serve` and `fixtures`: `--seed` and `--<key> N` for
 * each listing's collection in the spec (`--alerts`, `--sensors`), with their help lines.
 */
export function datasetCli(document: OpenAPIObject) {
  const collections = collectionsOf(document);
  const options: Record<string, { type: 'string' }> = {
    seed: { type: 'string' },
    ...Object.fromEntries(collections.map((c) => [c.key, { type: 'string' as const }])),
  };
  const help = [
    `  --seed N              seed of the generated data (default ${DEFAULT_DATASET.seed})`,
    ...collections.map((c) => `  ${`--${c.key} N`.padEnd(21)} number of ${c.key} to generate (default ${c.defaultCount})`),
  ].join('\n');

  /** Seed and counts from parsed option values; a count not given is the spec's default. */
  const read = (values: Record<string, unknown>): DatasetOptions => {
    const integer = (name: string, max: number) =>
      typeof values[name] === 'string' ? integerOption(name, values[name], 0, max) : undefined;
    const counts = Object.fromEntries(
      collections.flatMap((c) => (values[c.key] === undefined ? [] : [[c.key, integer(c.key, MAX_RECORDS)!]])),
    );
    return { seed: integer('seed', 2 ** 32 - 1) ?? DEFAULT_DATASET.seed, counts };
  };

  /** Whether any dataset option was given (they cannot be combined with --data). */
  const given = (values: Record<string, unknown>): boolean => Object.keys(options).some((name) => values[name] !== undefined);
  return { options, help, read, given };
}
