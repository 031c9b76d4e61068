import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { apiKeysOption, integerOption } from './option-parsers.ts';
import { describeScenarios, scenarioOptions } from './scenario-options.ts';
import { collectionsOf, countsOf } from '../fixtures/collections.ts';
import { DEFAULT_DATASET } from '../fixtures/generate-dataset.ts';
import type { AppOptions } from '../server/app-options.ts';
import { DEFAULT_API_KEY } from '../server/create-app.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import type { Dataset } from '../spec/records.ts';

/** Why a runtime entry cannot start with the options it was given: one line, for stderr or a 500. */
export class RuntimeOptionError extends Error {
  override readonly name = 'RuntimeOptionError';
}

/** Variables as a runtime hands them: `process.env`, `Deno.env.toObject()`, a Worker's `env` bindings. */
export type RuntimeEnv = Readonly<Record<string, unknown>>;

/** What an entry serves, and a description of it for its banner. */
export interface RuntimeMock {
  /** The options of createApp: the spec, seed and counts or records, the accepted keys, the conditions. */
  readonly options: AppOptions;
  /** `seed 1: 500 alerts, 200 sensors`, or `data: FILE (3 alerts, 2 sensors)` as `tempmon serve` prints it. */
  readonly data: string;
  /** `simulated: latency 100-800 ms, error rate 0.5, rate limit 2/s`, or '' when none is given. */
  readonly conditions: string;
  /** The accepted key as it may be printed (a key that was chosen is never printed). */
  readonly key: string;
}

const fail = (message: string) => new RuntimeOptionError(message);
/** An integer from 0 to `max`, refused in `tempmon serve`'s words. */
const integer = (name: string, value: string, max: number): number => integerOption(name, value, 0, max, fail);

/** The environment variable of an option: TEMPMON_SEED, TEMPMON_ALERTS, TEMPMON_ERROR_RATE, TEMPMON_DATA... */
export const optionVariable = (name: string): string => `TEMPMON_${name.toUpperCase().replaceAll('-', '_')}`;

/** The options a runtime entry reads from a flag or else its variable (`--api-key` is apart: repeatable). */
export const VALUE_OPTIONS = ['seed', 'data', 'latency', 'error-rate', 'rate-limit'] as const;

/**
 * Reads and validates a data file as `tempmon serve --data` does: what an entry with a file system passes
 * (see bun-entry.ts). A Worker has none, so it passes no loader and a data file is refused.
 */
export type DataLoader = (path: string, spec: LoadedSpec) => Dataset;

/** The refusal of a data file together with generated data's options, as `tempmon serve` words it. */
export const DATA_WITH_GENERATED = '--data cannot be combined with --seed or record counts';

/**
 * The mock of `tempmon serve` that a runtime without its CLI can start: seed and counts of generated data
 * or a data file (`--data`, only with a `loader`), the accepted key, and simulated conditions (`--latency`,
 * `--error-rate`, `--rate-limit`), from flags (`--seed`, `--alerts`, ..., `--api-key`, repeatable) or else
 * from variables (TEMPMON_SEED, TEMPMON_ALERTS, ..., TEMPMON_DATA, TEMPMON_LATENCY, TEMPMON_ERROR_RATE,
 * TEMPMON_RATE_LIMIT, TEMPMON_API_KEY: a Worker's vars and secrets). `maxCount` bounds every count (a
 * Worker's, see worker-entry.ts). Refusals read as `tempmon serve`'s where it has the option.
 */
export function runtimeMock(
  spec: LoadedSpec,
  env: RuntimeEnv,
  flags: Readonly<Record<string, string | readonly string[] | undefined>> = {},
  maxCount = 10_000_000,
  loader?: DataLoader,
): RuntimeMock {
  const text = (flag: string, variable = optionVariable(flag)): string | undefined => {
    const given = flags[flag];
    if (typeof given === 'string') return given;
    const value = env[variable];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const dataPath = text('data');
  if (dataPath !== undefined && !loader) {
    throw new RuntimeOptionError('data files (TEMPMON_DATA, --data) need Bun, Deno or Node: a Worker has no file system');
  }
  const seedText = text('seed');
  const seed = seedText === undefined ? DEFAULT_DATASET.seed : integer('seed', seedText, 2 ** 32 - 1);
  const counts: Record<string, number> = {};
  for (const { key } of collectionsOf(spec.document)) {
    const value = text(key);
    if (value !== undefined) counts[key] = integer(key, value, maxCount);
  }
  if (dataPath !== undefined && (seedText !== undefined || Object.keys(counts).length > 0)) {
    throw new RuntimeOptionError(DATA_WITH_GENERATED);
  }
  const scenarios = scenarioOptions({ latency: text('latency'), 'error-rate': text('error-rate'), 'rate-limit': text('rate-limit') }, fail);
  const flagged = flags['api-key'];
  const fromEnv = env.TEMPMON_API_KEY;
  const { keys: apiKeys, from } = apiKeysOption(
    typeof flagged === 'string' ? [flagged] : flagged,
    fromEnv === undefined ? undefined : String(fromEnv),
    fail,
  );
  const records = dataPath === undefined ? undefined : loader!(dataPath, spec);
  const sizes = Object.entries(records ?? countsOf(spec.document, counts))
    .map(([key, n]) => `${typeof n === 'number' ? n : n.length} ${key}`)
    .join(', ');
  const conditions = describeScenarios(scenarios);
  return {
    options: { spec, apiKeys, scenarios, ...(records ? { data: records } : { dataset: { seed, counts } }) },
    data: records ? `data: ${dataPath} (${sizes})` : `seed ${seed}: ${sizes}`,
    conditions: conditions && `simulated: ${conditions}`,
    key:
      from === 'default'
        ? DEFAULT_API_KEY
        : from === 'flags'
          ? 'the key given with --api-key (not printed)'
          : 'the one in TEMPMON_API_KEY (not printed)',
  };
}

/** Parsed flags of a runtime's own `serve` (see {@link serveFlags}). */
export interface ServeFlags {
  readonly port: number;
  readonly host: string;
  readonly flags: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/**
 * Reads `--port P --host H --seed N --alerts N ... --data F --latency L --error-rate R --rate-limit N
 * --api-key K` (also `--name=value`) as `tempmon serve` does, without node:util (which not every runtime
 * has in full). Port 4010 and host 127.0.0.1 by default.
 */
export function serveFlags(args: readonly string[], document: OpenAPIObject): ServeFlags {
  const known = new Set(['port', 'host', 'api-key', ...VALUE_OPTIONS, ...collectionsOf(document).map((c) => c.key)]);
  const flags: Record<string, string | string[]> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match || !known.has(match[1]!)) throw new RuntimeOptionError(`unknown option ${arg}`);
    const name = match[1]!;
    const value = match[2] ?? args[++i];
    if (value === undefined) throw new RuntimeOptionError(`option --${name} needs a value`);
    if (name === 'api-key') flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else flags[name] = value;
  }
  const port = flags.port === undefined ? 4010 : integer('port', flags.port as string, 65535);
  return { port, host: (flags.host as string | undefined) ?? '127.0.0.1', flags };
}
