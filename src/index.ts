/**
 * tempmon-kit: mock server and contract-testing kit for the temperature-monitoring alert and sensor
 * listings. This is the one public entry; everything else is internal.
 *
 * The public types are declared here, not re-exported, where an internal module's declarations name
 * node:http (the mock's and the proxy's fast paths) or undici (the contract's HTTP client): dist/index.d.ts
 * must type-check in a project without @types/node. The internals keep node's own types; the checks at
 * the end of this file keep both sides in step.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Hono } from 'hono';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { ALL_CHECKS as CHECKS } from './contract/checks/index.ts';
import { runContract as runContractInternal, type ContractOptions as InternalContractOptions } from './contract/run-contract.ts';
import type { ContractReport } from './contract/types.ts';
import type { Dataset, DatasetOptions } from './fixtures/generate-dataset.ts';
import { REFERENCE_DATE as REFERENCE } from './fixtures/seeded-faker.ts';
import { createProxy as createProxyInternal, type ProxyOptions as InternalProxyOptions } from './proxy/create-proxy.ts';
import type { Violation } from './proxy/validate-exchange.ts';
import {
  createApp as createAppInternal,
  createMock as createMockInternal,
  DEFAULT_API_KEY as DEFAULT_KEY,
  type AppOptions as InternalAppOptions,
  type Mock as InternalMock,
  type ScenarioOptions as InternalScenarioOptions,
} from './server/create-app.ts';
import type { DatasetStore } from './server/dataset-store.ts';
import type { LatencyRange } from './server/latency.ts';
import { nodeListener as nodeListenerInternal } from './server/node-listener.ts';
import type { LoadedSpec } from './spec/load-spec.ts';
import type { components } from './types/openapi.ts';

export { consoleReport } from './contract/reports/console-report.ts';
export { junitReport } from './contract/reports/junit-report.ts';
export { jsonReport } from './contract/reports/json-report.ts';
export type { CheckOutcome, ContractReport, Failure, Severity } from './contract/types.ts';
export { ContractSetupError } from './contract/types.ts';
export { generateDataset, DEFAULT_DATASET, type Dataset, type DatasetOptions } from './fixtures/generate-dataset.ts';
export { generateRecord } from './fixtures/generate-record.ts';
export { createRecordFactory, type ApiRecord, type RecordFactory } from './fixtures/record-factory.ts';
export { loadDataFile, DataFileError } from './fixtures/load-data-file.ts';
export { serializeDataset } from './fixtures/serialize-dataset.ts';
export type { Violation } from './proxy/validate-exchange.ts';
export type { DatasetStore } from './server/dataset-store.ts';
export type { LatencyRange } from './server/latency.ts';
export { loadSpec, SpecError, DEFAULT_SPEC_PATH, type LoadedSpec } from './spec/load-spec.ts';
export { listAssumptions, type Assumption } from './spec/list-assumptions.ts';
export { createSchemaValidator, type SchemaIssue, type SchemaValidator } from './spec/schema-validator.ts';
export type { paths, operations, components } from './types/openapi.ts';

/** An alert record, as the spec defines it. */
export type Alert = components['schemas']['Alert'];
/** A sensor record, as the spec defines it. */
export type Sensor = components['schemas']['Sensor'];
/** An RFC 9457 problem document, as the spec defines it. */
export type Problem = components['schemas']['Problem'];

// --- The mock ---------------------------------------------------------------------------------------

/** The key the mock accepts when none is configured. Documented, and only ever meant for local use. */
export const DEFAULT_API_KEY = DEFAULT_KEY;

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
}

/**
 * Creates the mock server as a plain Hono app: use `app.request()` in tests, `app.fetch` as a fetch
 * handler, or serve it with @hono/node-server. Routes, query validation and auth come from the spec.
 */
export function createApp(options?: AppOptions): Hono {
  return createAppInternal(options);
}

// --- node:http, without @types/node ----------------------------------------------------------------

/**
 * A request as node:http hands it to a request listener, named by the members the kit reads so that
 * its types need no @types/node. Pass node's own `IncomingMessage`: the kit relies on all of it.
 */
export interface NodeIncomingMessage {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
  readonly rawHeaders: readonly string[];
  readonly httpVersion: string;
}

/**
 * A response as node:http hands it to a request listener, named by the members the kit uses so that
 * its types need no @types/node. Pass node's own `ServerResponse`: the kit relies on all of it.
 */
export interface NodeServerResponse {
  statusCode: number;
  readonly headersSent: boolean;
  writeHead(statusCode: number, headers?: Readonly<Record<string, string>>): unknown;
  end(chunk?: string | Uint8Array): unknown;
}

/** A node:http request listener: `http.createServer(listener)` accepts it. */
export type NodeRequestListener = (request: NodeIncomingMessage, response: NodeServerResponse) => void;

/** Answers a node:http request without the Fetch API when it can; false when the app must answer it. */
export type NodeFastPath = (request: NodeIncomingMessage, response: NodeServerResponse) => boolean;

/** The app, and a node:http fast path for answers it has already computed (what `tempmon serve` runs). */
export interface Mock {
  readonly app: Hono;
  /** Answers a repeated listing request from cache; false when the app must answer it. */
  readonly fastPath: NodeFastPath;
}

/** Creates the app and its fast path (see {@link createApp}). */
export function createMock(options?: AppOptions): Mock {
  return createMockInternal(options) as Mock;
}

/**
 * The node:http request listener of a mock: its fast path for cached answers, then the full app.
 * With `log`, one line per request (method, path and query, status, duration); headers, and so the
 * key, are never logged. `http.createServer(nodeListener(createMock()))` serves it.
 */
export function nodeListener(mock: Mock, log?: (line: string) => void): NodeRequestListener {
  return nodeListenerInternal(mock, log) as NodeRequestListener;
}

// --- The contract kit --------------------------------------------------------------------------------

/** A fetch-compatible function: an in-process app's `fetch` (tests, the kit's own mock). */
export type FetchLike = (input: Request) => Promise<Response> | Response;

/** Options of {@link runContract}. */
export interface ContractOptions {
  /** Base URL of the server under test. */
  readonly target: string;
  readonly apiKey?: string;
  readonly document: OpenAPIObject;
  /** Names of the checks to run (see {@link ALL_CHECKS}); all by default. */
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
  /** Generated requests per exploration check and operation (default 100). */
  readonly examples?: number;
  /** The whole run's deadline (default 5 minutes): checks not started by then are skipped. */
  readonly maxDurationMs?: number;
  /** At most this many requests per second. */
  readonly rate?: number;
  /** Retries of a 429 (honouring Retry-After). */
  readonly maxRetries?: number;
  /** How to send requests; undici by default, an app's fetch for an in-process target. */
  readonly fetch?: FetchLike;
}

/**
 * Runs the selected checks against every operation of the spec and grades the result. Never throws
 * for anything the target does; only (ContractSetupError) when the run looks misconfigured: the target
 * cannot be reached, refuses the key, or answers 404 to every listing.
 */
export function runContract(options: ContractOptions): Promise<ContractReport> {
  return runContractInternal(options);
}

/** A check of the contract kit, as `checks` of {@link ContractOptions} and the reports name it. */
export interface CheckInfo {
  /** Stable name, used by `checks` (`--checks`) and in every report. */
  readonly name: string;
  /** One line: what conforming means. */
  readonly description: string;
  /** What the check needs from the target to give a verdict, in words (shown when it is skipped). */
  readonly evidence: string;
  /** The option that turns an opt-in check on; without it the check is not requested by default. */
  readonly optIn?: string;
  /** `scenario`: it sends its own requests; `response`: it inspects every response the run receives. */
  readonly kind: 'response' | 'scenario';
}

/** Every check, in the order they run and are reported: probes first, then what inspects every response. */
export const ALL_CHECKS: readonly CheckInfo[] = CHECKS;

// --- The validating proxy ----------------------------------------------------------------------------

/** Options of {@link createProxy}. */
export interface ProxyOptions {
  /** Base URL of the real deployment. */
  readonly target: string;
  readonly spec: LoadedSpec;
  /** Upstream time limit, body included; beyond it the client gets 504. */
  readonly timeoutMs?: number;
  /** Answer 502 with the violations instead of passing a non-conformant response through. */
  readonly errors?: boolean;
  /** Data file to record the records seen into. */
  readonly record?: string;
  /** One line per violation or upstream failure; never the key. */
  readonly log?: (line: string) => void;
  /** How to reach the target (global fetch by default). */
  readonly fetch?: FetchLike;
}

/** A running validating proxy (see {@link createProxy}). */
export interface ValidatingProxy {
  readonly app: Hono;
  /** Forwards a listing request straight from node:http; false when the app must answer it. */
  readonly fastPath: NodeFastPath;
  /** The violations seen so far (the newest 1000) and how many there were in all. */
  readonly violations: () => { count: number; violations: Violation[] };
  /** Writes the records seen to the `record` file now. */
  readonly flush: () => void;
}

/**
 * A validating proxy: forwards GET listings to the target unchanged and checks every response with the
 * contract kit's response checks. Violations are logged, counted and listed at GET /__tempmon/violations.
 */
export async function createProxy(options: ProxyOptions): Promise<ValidatingProxy> {
  return (await createProxyInternal(options)) as ValidatingProxy;
}

// --- Fixtures ----------------------------------------------------------------------------------------

/**
 * The fixed "now" of every dataset. Fixtures never read the wall clock, so the same seed gives the same
 * bytes on any day, in any time zone.
 */
export const REFERENCE_DATE: Date = REFERENCE;

// --- Checks that the declarations above match the internal ones --------------------------------------
// Type-only: nothing here is emitted. Same = mutually assignable with the same keys (so a new optional
// option of the internals fails the build until it is declared here too).

type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
type Assert<T extends true> = T;
type _InStep = Assert<
  | Same<AppOptions, InternalAppOptions>
  | Same<ScenarioOptions, InternalScenarioOptions>
  | Same<ContractOptions, InternalContractOptions>
  | Same<ProxyOptions, InternalProxyOptions>
  | Same<Omit<Mock, 'fastPath'>, Omit<InternalMock, 'fastPath'>>
  | Same<Omit<ValidatingProxy, 'fastPath'>, Omit<Awaited<ReturnType<typeof createProxyInternal>>, 'fastPath'>>
>;
// node's own objects and listeners fit the structural types, both ways a caller meets them.
type _NodeFits = Assert<
  | (IncomingMessage extends NodeIncomingMessage ? true : false)
  | (ServerResponse extends NodeServerResponse ? true : false)
  | (NodeRequestListener extends RequestListener ? true : false)
>;
