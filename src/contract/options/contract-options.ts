// The options of runContract, apart from the runner: the public entry re-exports them, and nothing here may
// name undici or node:http (dist/index.d.ts must type-check without @types/node).
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { Place, Exchange, FetchLike } from '../types.ts';

/** Options of {@link runContract}. */
export interface ContractOptions {
  /** Base URL of the server under test. */
  readonly target: string;
  readonly apiKey?: string;
  readonly document: OpenAPIObject;
  /** Names of the checks to run; all by default. */
  readonly checks?: readonly string[];
  /** Warnings (assumptions, undocumented fields) fail the run too. */
  readonly strict?: boolean;
  readonly timeoutMs?: number;
  readonly maxPages?: number;
  readonly maxResponseTimeMs?: number;
  readonly maxBodyBytes?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Seed of the generated requests (random by default, and reported, so a run can be replayed). */
  readonly seed?: number;
  /** Generated requests per exploration check and operation after the covering set (default 50). */
  readonly examples?: number;
  /** The first this many requests of each listing's covering set (default all): what a run trimmed to fit judged. */
  readonly covering?: number;
  /** The first this many special terms of search_special_terms (default all; one of each class in turn). */
  readonly specialTerms?: number;
  /** The whole run's deadline (default 5 minutes): checks not started by then are skipped. */
  readonly maxDurationMs?: number;
  /** At most this many requests per second. */
  readonly rate?: number;
  /**
   * At most this many requests in flight (default 8); from the first 429 on, one at a time. 1 sends one
   * request at a time throughout. The findings are the same whatever the order answers arrive in.
   */
  readonly concurrency?: number;
  /** Retries of a 429 (honouring Retry-After). */
  readonly maxRetries?: number;
  /**
   * How far behind its data the listing may answer, in ms (default 10 s): an answer is judged against the versions of
   * the listing seen within its own span, widened by the staleness the run measured (replicas, a search index behind),
   * at most this. 0 asks for a linearizable listing.
   */
  readonly maxStalenessMs?: number;
  /** How to send requests; undici by default, an app's fetch for an in-process target. */
  readonly fetch?: FetchLike;
  /**
   * Receives every exchange of the run (redacted, as the reports show them) as its answer arrives, with its
   * place in the run's order: sorted by place ({@link comparePlaces}), the exchanges come in the same order
   * whatever order answers arrived in. The probes alone when the run cannot go on (a refused key). Where
   * `--har` writes them.
   */
  readonly record?: (exchange: Exchange, place: Place) => void;
}
