import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { collectionsOf, countsOf } from '../fixtures/collections.ts';
import { DEFAULT_DATASET } from '../fixtures/generate-dataset.ts';
import type { AppOptions } from '../server/app-options.ts';
import { DEFAULT_API_KEY } from '../server/create-app.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';

/** Why a runtime entry cannot start with the options it was given: one line, for stderr or a 500. */
export class RuntimeOptionError extends Error {
  override readonly name = 'RuntimeOptionError';
}

/** Variables as a runtime hands them: `process.env`, `Deno.env.toObject()`, a Worker's `env` bindings. */
export type RuntimeEnv = Readonly<Record<string, unknown>>;

/** What an entry serves, and a description of it for its banner. */
export interface RuntimeMock {
  /** The options of createApp: the spec, seed and counts, the accepted keys. */
  readonly options: AppOptions;
  /** `seed 1: 500 alerts, 200 sensors`. */
  readonly data: string;
  /** The accepted key as it may be printed (a key that was chosen is never printed). */
  readonly key: string;
}

const integer = (name: string, value: string, max: number): number => {
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new RuntimeOptionError(`${name} must be an integer from 0 to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
};

/** The environment variable of a collection's count: TEMPMON_ALERTS, TEMPMON_SENSORS. */
export const countVariable = (key: string): string => `TEMPMON_${key.toUpperCase()}`;

/**
 * The mock of `tempmon serve` that a runtime without its CLI can start: seed and counts of generated data,
 * and the accepted key, from flags (`--seed`, `--alerts`, ..., `--api-key`, repeatable) or else from
 * variables (TEMPMON_SEED, TEMPMON_ALERTS, ..., TEMPMON_API_KEY: a Worker's vars and secrets). `maxCount`
 * bounds every count (a Worker's, see worker-entry.ts).
 */
export function runtimeMock(
  spec: LoadedSpec,
  env: RuntimeEnv,
  flags: Readonly<Record<string, string | readonly string[] | undefined>> = {},
  maxCount = 10_000_000,
): RuntimeMock {
  const text = (flag: string, variable: string): string | undefined => {
    const given = flags[flag];
    if (typeof given === 'string') return given;
    const value = env[variable];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const seedText = text('seed', 'TEMPMON_SEED');
  const seed = seedText === undefined ? DEFAULT_DATASET.seed : integer('seed', seedText, 2 ** 32 - 1);
  const counts: Record<string, number> = {};
  for (const { key } of collectionsOf(spec.document)) {
    const value = text(key, countVariable(key));
    if (value !== undefined) counts[key] = integer(key, value, maxCount);
  }
  const flagged = flags['api-key'];
  const keyFlags = typeof flagged === 'string' ? [flagged] : flagged;
  const fromEnv = env.TEMPMON_API_KEY;
  if (keyFlags?.some((key) => key.trim() === '')) throw new RuntimeOptionError('--api-key must not be empty');
  if (!keyFlags && fromEnv !== undefined && String(fromEnv).trim() === '') {
    throw new RuntimeOptionError(`TEMPMON_API_KEY is set but empty: set it to a key, or unset it to accept ${DEFAULT_API_KEY}`);
  }
  const apiKeys = keyFlags ? [...keyFlags] : fromEnv === undefined ? [DEFAULT_API_KEY] : [String(fromEnv)];
  const chosen = !apiKeys.every((key) => key === DEFAULT_API_KEY);
  const all = countsOf(spec.document, counts);
  return {
    options: { spec, apiKeys, dataset: { seed, counts } },
    data: `seed ${seed}: ${Object.entries(all)
      .map(([key, n]) => `${n} ${key}`)
      .join(', ')}`,
    key: chosen ? (keyFlags ? 'the key given with --api-key (not printed)' : 'the one in TEMPMON_API_KEY (not printed)') : DEFAULT_API_KEY,
  };
}

/** Parsed flags of a runtime's own `serve` (see {@link serveFlags}). */
export interface ServeFlags {
  readonly port: number;
  readonly host: string;
  readonly flags: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/**
 * Reads `--port P --host H --seed N --alerts N ... --api-key K` (also `--name=value`) as `tempmon serve`
 * does, without node:util (which not every runtime has in full). Port 4010 and host 127.0.0.1 by default.
 */
export function serveFlags(args: readonly string[], document: OpenAPIObject): ServeFlags {
  const known = new Set(['port', 'host', 'seed', 'api-key', ...collectionsOf(document).map((c) => c.key)]);
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
