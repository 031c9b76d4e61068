// The options of `tempmon contract`, declared once: the CLI's parser and help, and the run's defaults, come from
// this table. No node: import (the public entry re-exports the defaults).
import { SPEC_OPTION_HELP } from '../../spec/spec-option.ts';
import type { ContractOptions } from './contract-options.ts';

/** The numeric options of runContract a flag can set. */
type NumericOption = {
  [K in keyof ContractOptions]-?: NonNullable<ContractOptions[K]> extends number ? K : never;
}[keyof ContractOptions];

/** One flag of `tempmon contract`. */
export interface ContractFlag {
  /** Without its dashes: `max-duration`. */
  readonly name: string;
  /** What follows the flag in the help (`SECONDS`); absent for a switch. */
  readonly value?: string;
  /** Its help, one line, and further lines for a long one; `{default}` is the default in the flag's unit. */
  readonly help: readonly string[];
  readonly short?: string;
  /** Given more than once. */
  readonly multiple?: true;
  /** An integer flag: its bounds, in the flag's unit. */
  readonly integer?: { readonly min: number; readonly max: number };
  /** The runContract option an integer flag sets, `scale` times the flag's value (seconds to ms: 1000). */
  readonly option?: NumericOption;
  readonly scale?: number;
  /** The option's default, in the option's unit. */
  readonly default?: number;
}

/** Every flag of `tempmon contract`, in the order of its help. */
export const CONTRACT_FLAGS = [
  { name: 'target', value: 'URL', help: ['base URL of the server under test (required)'] },
  { name: 'api-key', value: 'KEY', help: ['the key to send; better: set TEMPMON_API_KEY in the environment'] },
  { name: 'strict', help: ['fail on warnings too (assumptions of the spec, undocumented fields)'] },
  { name: 'checks', value: 'a,b', help: ['run only these checks (see the list below)'] },
  {
    name: 'seed',
    value: 'N',
    help: ['seed of the generated requests (default: random, printed; replays a run)'],
    integer: { min: 0, max: 2 ** 31 - 1 },
    option: 'seed',
  },
  {
    name: 'examples',
    value: 'N',
    help: ['random requests per exploration and listing, after the covering set (default {default})'],
    integer: { min: 1, max: 100_000 },
    option: 'examples',
    default: 50,
  },
  {
    name: 'covering',
    value: 'N',
    help: ["judge only the first N requests of each listing's covering set (default all; cheap ones and every class first)"],
    integer: { min: 0, max: 100_000 },
    option: 'covering',
  },
  {
    name: 'special-terms',
    value: 'N',
    help: ['send only the first N special search terms (default all; one of each class in turn)'],
    integer: { min: 1, max: 100_000 },
    option: 'specialTerms',
  },
  { name: 'junit', value: 'FILE', help: ['also write a JUnit XML report (written on every exit, 2 included)'] },
  { name: 'json', value: 'FILE', help: ['also write a JSON report (written on every exit, 2 included)'] },
  {
    name: 'har',
    value: 'FILE',
    help: [
      'also write every request and response as HAR 1.2, as the run goes (valid on every',
      'exit, 2 included; redacted as the reports are; bodies over 64 KiB cut)',
    ],
  },
  {
    name: 'timeout',
    value: 'MS',
    help: ['per request, body included (default {default})'],
    integer: { min: 1, max: 600_000 },
    option: 'timeoutMs',
    default: 10_000,
  },
  {
    name: 'max-duration',
    value: 'SECONDS',
    help: [
      "the whole run's budget and deadline (default {default}): --examples, then --covering and --special-terms",
      'are trimmed to fit an estimate made after the first reads; checks not reached by the deadline are skipped',
    ],
    integer: { min: 1, max: 86_400 },
    option: 'maxDurationMs',
    scale: 1000,
    default: 300_000,
  },
  {
    name: 'max-pages',
    value: 'N',
    help: ['pages read when enumerating a listing (default {default})'],
    integer: { min: 1, max: 1_000_000 },
    option: 'maxPages',
    default: 50,
  },
  {
    name: 'max-staleness',
    value: 'MS',
    help: [
      'how far behind its data a listing may answer, in ms (default {default}): an answer only a version of the listing',
      'older than this explains is a finding; 0 asks for a linearizable listing (replicas and search indexes behind fail)',
    ],
    integer: { min: 0, max: 600_000 },
    option: 'maxStalenessMs',
    default: 10_000,
  },
  {
    name: 'max-response-time',
    value: 'MS',
    help: ['fail any response slower than this (opt-in check max_response_time)'],
    integer: { min: 1, max: 600_000 },
    option: 'maxResponseTimeMs',
  },
  {
    name: 'rate',
    value: 'N',
    help: ['send at most N requests per second (for real gateways)'],
    integer: { min: 1, max: 100_000 },
    option: 'rate',
  },
  {
    name: 'concurrency',
    value: 'N',
    help: ['at most N requests in flight (default {default}): from 2, more while latency holds; from the first 429 on, one'],
    integer: { min: 1, max: 64 },
    option: 'concurrency',
    default: 8,
  },
  {
    name: 'max-retries',
    value: 'N',
    help: ['retries of a 429, honouring Retry-After (default {default})'],
    integer: { min: 0, max: 20 },
    option: 'maxRetries',
    default: 2,
  },
  {
    name: 'header',
    value: "'Name: value'",
    help: ['extra header on every request (repeatable), e.g. for a gateway; values are redacted'],
    multiple: true,
  },
  { name: 'spec', value: 'FILE', help: [SPEC_OPTION_HELP] },
  { name: 'help', short: 'h', help: ['show this help'] },
] as const satisfies readonly ContractFlag[];

type Flag = (typeof CONTRACT_FLAGS)[number];
type WithDefault = Extract<Flag, { default: number }>;

/** The defaults of runContract that a flag can change, from the table; and the cap on a body. */
export const CONTRACT_DEFAULTS = {
  ...(Object.fromEntries(CONTRACT_FLAGS.filter((f): f is WithDefault => 'default' in f).map((f) => [f.option, f.default])) as {
    readonly [F in WithDefault as F['option']]: F['default'];
  }),
  /** A body is read up to this (a larger one is cut, and later ones read only up to a smaller cap). */
  maxBodyBytes: 16 * 1024 * 1024,
} as const;

/** The options {@link CONTRACT_DEFAULTS} gives a default. */
type Defaulted = keyof typeof CONTRACT_DEFAULTS;

/** The options every default of which is applied: what a run works with, so no step applies one again. */
export type SettledOptions = ContractOptions & Required<Pick<ContractOptions, 'strict' | 'seed' | Defaulted>>;

/**
 * `options` with every default applied, once, the seed drawn when none was given.
 *
 * @example
 * const settled = withDefaults({ target, document }); // settled.concurrency === 8
 */
export function withDefaults(options: ContractOptions): SettledOptions {
  const applied: { [K in Defaulted]: number } = { ...CONTRACT_DEFAULTS };
  for (const name of Object.keys(applied) as Defaulted[]) applied[name] = options[name] ?? CONTRACT_DEFAULTS[name];
  return {
    ...options,
    ...applied,
    strict: options.strict ?? false,
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
  };
}
