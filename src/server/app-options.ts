// The options of createApp, apart from the app: the public entry re-exports them, and nothing here may name
// node:http (dist/index.d.ts must type-check without @types/node).
import type { Dataset, DatasetOptions } from '../fixtures/generate-dataset.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import type { DatasetStore } from '../store/dataset-store.ts';
import type { LatencyRange } from './latency.ts';
import type { LiveOptions } from '../live/live-options.ts';

/** Simulated network and server conditions, for building loading, error and rate-limited states. */
export interface ScenarioOptions {
  /** Delay of every listing response, fixed or a range in milliseconds. */
  readonly latency?: LatencyRange;
  /** Share of listing requests (0..1) answered with 500 or 503. */
  readonly errorRate?: number;
  /** Requests per second per key before 429. */
  readonly rateLimit?: number;
  /** Seed of the random draws (latency, faults); defaults to the dataset's seed. */
  readonly seed?: number;
}

/** Options of {@link createApp}. Everything is optional: the default is the kit's spec and dataset. */
export interface AppOptions {
  /** The contract to serve; defaults to the kit's `spec/openapi.yaml`. */
  readonly spec?: LoadedSpec;
  /** Accepted API keys; defaults to `[DEFAULT_API_KEY]`. */
  readonly apiKeys?: readonly string[];
  /** Records to serve (as from a data file); they are served in the documented order. */
  readonly data?: Dataset;
  /** A store to serve from instead, for data that changes while serving (watch mode). */
  readonly store?: DatasetStore;
  /** Seed and counts of generated data, used when neither `data` nor `store` is given. */
  readonly dataset?: DatasetOptions;
  readonly scenarios?: ScenarioOptions;
  /**
   * Live data (generated data only): records arrive and change over time, each answer a function of the
   * moment the app took its request. See {@link LiveOptions}.
   */
  readonly live?: LiveOptions;
  /**
   * Checks of query parameters; defaults to Ajv compiling the spec's schemas at run time. A runtime that
   * refuses code made from strings (Cloudflare Workers) passes validators compiled ahead of time.
   */
  readonly validator?: SchemaValidator;
}
