// The options of `tempmon serve`, declared and read once for the CLI and every runtime entry (Bun, Deno,
// Workers): the same flags, defaults, bounds and words everywhere. No node: import: a Worker bundles this.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { collectionsOf, countsOf } from '../fixtures/collections.ts';
import { DEFAULT_DATASET } from '../fixtures/generate-dataset.ts';
import type { ScenarioOptions } from '../server/app-options.ts';
import { DEFAULT_API_KEY } from '../server/create-app.ts';
import { SPEC_OPTION_HELP } from '../spec/spec-option.ts';
import { listListings } from '../spec/operations.ts';
import type { DatasetOptions } from '../spec/records.ts';
import { type ApiKeys, apiKeysOption, integerOption, type OptionFailure } from './option-parsers.ts';
import type { HelpedFlag } from './flag-help.ts';
import type { FlagShape } from './flag-shape.ts';
import { type FlagValues, flagText, parseFlags } from './parse-flags.ts';
import { describeScenarios, scenarioOptions } from './scenario-options.ts';
import { describeLive, LIVE_FLAGS, liveFlags } from './live-flags.ts';
import type { LiveOptions } from '../live/live-options.ts';

/** Where `tempmon serve` listens unless told otherwise. */
export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
/** Most records a collection may be asked for. */
export const MAX_RECORDS = 10_000_000;
/** Largest seed. */
export const MAX_SEED = 2 ** 32 - 1;

/** The refusal of a data file together with generated data's options. */
export const DATA_WITH_GENERATED = '--data cannot be combined with --seed or record counts';

/** One flag of `tempmon serve`. */
export interface ServeFlag extends HelpedFlag {
  /** Read from TEMPMON_<NAME> when the flag is not given, by the CLI and every runtime entry (a Worker's vars, a container's env). */
  readonly variable?: true;
  /** Only the CLI has it; a runtime entry refuses it as unknown. */
  readonly cliOnly?: true;
}

/**
 * The options that choose generated data, for `serve` and `fixtures`: `--seed`, and `--<key> N` per collection
 * of the spec's listings (`--alerts`, `--sensors`).
 */
export function datasetFlags(document: OpenAPIObject): ServeFlag[] {
  return [
    { name: 'seed', value: 'N', help: [`seed of the generated data (default ${DEFAULT_DATASET.seed})`], variable: true },
    ...collectionsOf(document).map(
      (c): ServeFlag => ({ name: c.key, value: 'N', help: [`number of ${c.key} to generate (default ${c.defaultCount})`], variable: true }),
    ),
  ];
}

/** Every flag of `tempmon serve`, in the order of its help. */
export function serveFlags(document: OpenAPIObject): readonly ServeFlag[] {
  return [
    { name: 'port', value: 'N', help: [`port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)`], variable: true },
    { name: 'host', value: 'HOST', help: [`address to bind (default ${DEFAULT_HOST})`], variable: true },
    ...datasetFlags(document),
    {
      name: 'data',
      value: 'FILE',
      help: [`serve the records of FILE (${dataFileShape(document)})`, 'instead of generated ones; every record is validated first'],
      variable: true,
    },
    {
      name: 'api-key',
      value: 'KEY',
      multiple: true,
      help: ['accepted key (repeatable); default: the key in $TEMPMON_API_KEY,', `else ${DEFAULT_API_KEY}`],
    },
    { name: 'latency', value: 'MS', help: ['delay every listing response: 200, or a range 100-800'], variable: true },
    { name: 'error-rate', value: 'R', help: ['answer a share R (0..1) of listing requests with 500 or 503'], variable: true },
    { name: 'rate-limit', value: 'N', help: ['at most N requests per second per key, then 429'], variable: true },
    ...LIVE_FLAGS.map((flag): ServeFlag => ({ ...flag, help: [...flag.help], variable: true })),
    { name: 'watch', help: ['with --data, reload the file when it changes'], cliOnly: true },
    { name: 'spec', value: 'FILE', help: [SPEC_OPTION_HELP], cliOnly: true },
    { name: 'quiet', help: ['do not log requests'], cliOnly: true },
    {
      name: 'log-format',
      value: 'F',
      help: ['request log: compact (a line per request, default) or json (pino)'],
      cliOnly: true,
      variable: true,
    },
    { name: 'help', short: 'h', help: ['show this help'], cliOnly: true },
  ];
}

/** `{ "alerts": [...], "sensors": [...] }`: the shape of a data file, from the spec's collections. */
const dataFileShape = (document: OpenAPIObject) =>
  `{ ${collectionsOf(document)
    .map((c) => `"${c.key}": [...]`)
    .join(', ')} }`;

/** The options of `tempmon serve`, read and checked. */
export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly apiKeys: ApiKeys;
  /** `--data FILE`; undefined for generated data. */
  readonly dataPath: string | undefined;
  /** Seed and the counts given (a count not given is the spec's default). */
  readonly dataset: DatasetOptions;
  readonly scenarios: ScenarioOptions;
  /** `--live` (or `--clock`): live data; undefined for data that holds still. */
  readonly live: LiveOptions | undefined;
  readonly watch: boolean;
  readonly quiet: boolean;
  /** As given; the CLI checks it (the request log is Node's). */
  readonly logFormat: string | undefined;
}

/** The environment variable of a flag: TEMPMON_SEED, TEMPMON_ALERTS, TEMPMON_ERROR_RATE, TEMPMON_DATA... */
export const flagVariable = (name: string): string => `TEMPMON_${name.toUpperCase().replaceAll('-', '_')}`;

/**
 * The flags of `tempmon serve` in `args`, as given; the variable of a flag not given stands in for it (TEMPMON_SEED
 * for --seed: a Worker's vars, a container's env). A runtime entry's (`runtime`): the CLI-only flags are unknown there.
 *
 * @example
 * parseServeArgs(document, ['--port', '0', '--alerts=50'], {}, false, (m) => new Error(m)); // { port: '0', alerts: '50' }
 */
export function parseServeArgs(
  document: OpenAPIObject,
  args: readonly string[],
  env: Readonly<Record<string, unknown>>,
  runtime: boolean,
  fail: OptionFailure,
  others?: () => Readonly<Record<string, readonly FlagShape[]>>,
): FlagValues {
  const flags = serveFlags(document).filter((flag) => !(runtime && flag.cliOnly));
  const values: Record<string, FlagValues[string]> = { ...parseFlags(args, flags, 'serve', fail, others) };
  for (const flag of flags) {
    const value = env[flagVariable(flag.name)];
    if (flag.variable && values[flag.name] === undefined && value !== undefined && value !== null && value !== '')
      values[flag.name] = String(value);
  }
  return values;
}

/**
 * The options of `tempmon serve` from its parsed flags (see parseServeArgs) and TEMPMON_API_KEY, checked in one
 * order everywhere; the first refusal is made by `fail`. `maxCount` bounds every count (a Worker's is smaller).
 *
 * @example
 * const options = serveOptions(document, { port: '0', alerts: '50' }, process.env, (m) => new Error(m));
 * // options.port === 0, options.dataset.counts.alerts === 50
 */
export function serveOptions(
  document: OpenAPIObject,
  values: FlagValues,
  env: Readonly<Record<string, unknown>>,
  fail: OptionFailure,
  maxCount = MAX_RECORDS,
): ServeOptions {
  const text = (name: string) => flagText(values, name);
  const portText = text('port');
  const port = portText === undefined ? DEFAULT_PORT : integerOption('port', portText, 0, 65535, fail);
  const host = text('host') ?? DEFAULT_HOST;
  const key = env.TEMPMON_API_KEY;
  const apiKeys = apiKeysOption(values['api-key'] as readonly string[] | undefined, key === undefined ? undefined : String(key), fail);
  const dataPath = text('data');
  if (dataPath !== undefined && datasetFlags(document).some((flag) => values[flag.name] !== undefined)) throw fail(DATA_WITH_GENERATED);
  if (values.watch && dataPath === undefined) throw fail('--watch needs --data FILE');
  const scenarios = scenarioOptions({ latency: text('latency'), 'error-rate': text('error-rate'), 'rate-limit': text('rate-limit') }, fail);
  const live = liveFlags(values, dataPath, fail);
  return {
    port,
    host,
    apiKeys,
    dataPath,
    dataset: readDataset(document, values, fail, maxCount),
    scenarios,
    live,
    watch: values.watch === true,
    quiet: values.quiet === true,
    logFormat: text('log-format'),
  };
}

/** Seed and counts from parsed flags; a count not given stays out (the spec's default). */
export function readDataset(document: OpenAPIObject, values: FlagValues, fail: OptionFailure, maxCount = MAX_RECORDS): DatasetOptions {
  const integer = (name: string, max: number) => {
    const value = values[name];
    return typeof value === 'string' ? integerOption(name, value, 0, max, fail) : undefined;
  };
  const counts = Object.fromEntries(
    collectionsOf(document).flatMap((c) => (values[c.key] === undefined ? [] : [[c.key, integer(c.key, maxCount)!]])),
  );
  return { seed: integer('seed', MAX_SEED) ?? DEFAULT_DATASET.seed, counts };
}

/** How a banner names the accepted keys: only a key that is public anyway is ever printed. */
export function describeKeys({ keys, from }: ApiKeys): string {
  if (from === 'default') return DEFAULT_API_KEY;
  if (from === 'environment') return 'the one in $TEMPMON_API_KEY (not printed)';
  return `the ${keys.length > 1 ? `${keys.length} keys` : 'key'} given with --api-key (not printed; the curl below reads one from $TEMPMON_API_KEY)`;
}

/**
 * The banner's line to try the mock on the spec's first listing: the default key written out, a chosen one read
 * from the environment (double quotes, so the shell expands it).
 */
export function tryLine(url: string, { from }: ApiKeys, document: OpenAPIObject): string {
  const listing = listListings(document)[0];
  const header = listing?.apiKeyHeader;
  const key = header === undefined ? '' : from === 'default' ? `-H '${header}: ${DEFAULT_API_KEY}' ` : `-H "${header}: $TEMPMON_API_KEY" `;
  return `try: curl ${key}'${url}${listing?.path ?? '/'}?pageSize=2'`;
}

/** Records per collection served: the data file's, or the counts asked for (the spec's defaults otherwise). */
export function servedSizes(
  document: OpenAPIObject,
  options: ServeOptions,
  data?: Readonly<Record<string, readonly unknown[]>>,
): Record<string, number> {
  return data
    ? Object.fromEntries(Object.entries(data).map(([key, records]) => [key, records.length]))
    : countsOf(document, options.dataset.counts);
}

/**
 * The banner's lines after "listening on", as `tempmon serve` and every runtime entry print them: the data, the
 * key, the simulated conditions if any, and a line to try it. `sizes`: records per collection served.
 */
export function bannerLines(
  document: OpenAPIObject,
  options: ServeOptions,
  sizes: Readonly<Record<string, number>>,
  url: string,
): string[] {
  const counts = Object.entries(sizes)
    .map(([key, n]) => `${n} ${key}`)
    .join(', ');
  const conditions = describeScenarios(options.scenarios);
  return [
    options.dataPath === undefined ? `  seed ${options.dataset.seed}: ${counts}` : `  data: ${options.dataPath} (${counts})`,
    `  key: ${describeKeys(options.apiKeys)}`,
    ...(conditions ? [`  simulated: ${conditions}`] : []),
    ...(options.live ? [`  live: ${describeLive(options.live)}`] : []),
    `  ${tryLine(url, options.apiKeys, document)}`,
  ];
}
