import type { AppOptions } from '../server/app-options.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import type { Dataset } from '../spec/records.ts';
import type { FlagValues } from './parse-flags.ts';
import { bannerLines, flagVariable, MAX_RECORDS, parseServeArgs, type ServeOptions, servedSizes, serveOptions } from './serve-options.ts';

/** Why a runtime entry cannot start with the options it was given: one line, for stderr or a 500. */
export class RuntimeOptionError extends Error {
  override readonly name = 'RuntimeOptionError';
}

/** Variables as a runtime hands them: `process.env`, `Deno.env.toObject()`, a Worker's `env` bindings. */
export type RuntimeEnv = Readonly<Record<string, unknown>>;

/**
 * Reads and validates a data file as `tempmon serve --data` does: what an entry with a file system passes
 * (see bun-entry.ts). A Worker has none, so it passes no loader and a data file is refused.
 */
export type DataLoader = (path: string, spec: LoadedSpec) => Dataset;

/** What an entry serves, where, and what its banner says. */
export interface RuntimeMock {
  readonly port: number;
  readonly host: string;
  /** The flags, the variables of those not given merged in (what a Worker is handed as vars). */
  readonly values: FlagValues;
  readonly settings: ServeOptions;
  /** The options of createApp: the spec, seed and counts or records, the accepted keys, the conditions. */
  readonly options: AppOptions;
  /** The banner's lines after "listening on `url`", as `tempmon serve` prints them. */
  readonly banner: (url: string) => string[];
}

const fail = (message: string) => new RuntimeOptionError(message);

/**
 * The mock of `tempmon serve` that a runtime without its CLI starts, from `args` (`--seed`, `--alerts`, ...,
 * `--api-key`, repeatable; CLI-only flags such as `--watch` are unknown here) or else from variables
 * (TEMPMON_SEED, TEMPMON_ALERTS, ..., TEMPMON_DATA, TEMPMON_LATENCY, TEMPMON_ERROR_RATE, TEMPMON_RATE_LIMIT,
 * TEMPMON_API_KEY: a Worker's vars and secrets). A data file needs a `loader`; `maxCount` bounds every count
 * (a Worker's, see worker-entry.ts). Refusals are `tempmon serve`'s, word for word.
 *
 * @example
 * const mock = runtimeMock(loadSpec(), Bun.env, Bun.argv.slice(2), undefined, loadData);
 * Bun.serve({ port: mock.port, hostname: mock.host, fetch: createApp(mock.options).fetch });
 */
export function runtimeMock(
  spec: LoadedSpec,
  env: RuntimeEnv,
  args: readonly string[] = [],
  maxCount = MAX_RECORDS,
  loader?: DataLoader,
): RuntimeMock {
  const values = parseServeArgs(spec.document, args, env, true, fail);
  if (values.data !== undefined && !loader) {
    throw fail(`data files (${flagVariable('data')}, --data) need Bun, Deno or Node: a Worker has no file system`);
  }
  const settings = serveOptions(spec.document, values, env, fail, maxCount);
  const records = settings.dataPath === undefined ? undefined : loader!(settings.dataPath, spec);
  const sizes = servedSizes(spec.document, settings, records);
  return {
    port: settings.port,
    host: settings.host,
    values,
    settings,
    options: {
      spec,
      apiKeys: settings.apiKeys.keys,
      scenarios: settings.scenarios,
      ...(settings.live ? { live: settings.live } : {}),
      ...(records ? { data: records } : { dataset: settings.dataset }),
    },
    banner: (url) => bannerLines(spec.document, settings, sizes, url),
  };
}
