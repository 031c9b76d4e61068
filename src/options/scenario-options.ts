// The simulated conditions of `tempmon serve` and of the runtime entries (src/runtimes/), parsed once so a
// refusal reads the same everywhere. No node: import: a Worker bundles this.
import type { ScenarioOptions } from '../server/app-options.ts';
import { type LatencyRange, MAX_DELAY_MS } from '../server/latency.ts';
import { integerOption, type OptionFailure, plainFailure as plain } from './option-parsers.ts';

/** Most requests per second per key that `--rate-limit` takes. */
export const MAX_RATE_LIMIT = 1_000_000;

/** `--latency`: `200` or `100-800`, in milliseconds, up to MAX_DELAY_MS. */
export function latencyOption(value: string, fail: OptionFailure = plain): LatencyRange {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(value);
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || min > max || max > MAX_DELAY_MS) {
    throw fail(`--latency must be milliseconds (200) or a range (100-800) up to ${MAX_DELAY_MS}, got ${JSON.stringify(value)}`);
  }
  return { min, max };
}

/** `--error-rate`: a share from 0 to 1. */
export function rateOption(value: string, fail: OptionFailure = plain): number {
  const rate = /^(0|1|0?\.\d+|1\.0*)$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isNaN(rate)) throw fail(`--error-rate must be a number from 0 to 1, got ${JSON.stringify(value)}`);
  return rate;
}

/** `--rate-limit`: requests per second per key, an integer from 1 to MAX_RATE_LIMIT. */
export function rateLimitOption(value: string, fail: OptionFailure = plain): number {
  return integerOption('rate-limit', value, 1, MAX_RATE_LIMIT, fail);
}

/** The texts of `--latency`, `--error-rate` and `--rate-limit`, each undefined when not given. */
export interface ScenarioTexts {
  readonly latency: string | undefined;
  readonly 'error-rate': string | undefined;
  readonly 'rate-limit': string | undefined;
}

/** createApp's `scenarios` from the options given; an option not given stays out. */
export function scenarioOptions(texts: ScenarioTexts, fail: OptionFailure = plain): ScenarioOptions {
  const { latency, 'error-rate': errorRate, 'rate-limit': rateLimit } = texts;
  return {
    ...(latency === undefined ? {} : { latency: latencyOption(latency, fail) }),
    ...(errorRate === undefined ? {} : { errorRate: rateOption(errorRate, fail) }),
    ...(rateLimit === undefined ? {} : { rateLimit: rateLimitOption(rateLimit, fail) }),
  };
}

/** The conditions as a banner prints them: `latency 100-800 ms, error rate 0.5, rate limit 2/s`; '' for none. */
export function describeScenarios(scenarios: ScenarioOptions): string {
  const { latency, errorRate, rateLimit } = scenarios;
  return [
    latency && `latency ${latency.min === latency.max ? latency.min : `${latency.min}-${latency.max}`} ms`,
    errorRate !== undefined && `error rate ${errorRate}`,
    rateLimit !== undefined && `rate limit ${rateLimit}/s`,
  ]
    .filter(Boolean)
    .join(', ');
}
