/**
 * tempmon-kit: mock server and contract-testing kit for the temperature-monitoring alert and sensor
 * listings. This is the one public entry; everything else is internal.
 *
 * dist/index.d.ts must type-check in a project without @types/node: options are re-exported from modules
 * that name neither node:http nor undici, and the results that do (the mock's replay, its node:http listener)
 * are declared here structurally; the checks at the end of this file keep both sides in step.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Hono } from 'hono';
import { ALL_CHECKS as CHECKS } from './contract/checks/index.ts';
import type { ContractOptions } from './contract/options/contract-options.ts';
import { runContract as runContractInternal } from './contract/run/run-contract.ts';
import type { ContractReport } from './contract/types.ts';
import { REFERENCE_DATE as REFERENCE } from './fixtures/seeded-faker.ts';
import { createProxy as createProxyInternal } from './proxy/create-proxy.ts';
import type { ProxyOptions } from './proxy/proxy-options.ts';
import type { Violation } from './proxy/validate-exchange.ts';
import {
  createApp as createAppInternal,
  createMock as createMockInternal,
  DEFAULT_API_KEY as DEFAULT_KEY,
  type Mock as InternalMock,
} from './server/create-app.ts';
import type { AppOptions } from './server/app-options.ts';
import { nodeListener as nodeListenerInternal } from './server/node-listener.ts';
import type { components, paths } from './types/openapi.ts';

export { consoleReport } from './contract/reports/console-report.ts';
export { junitReport } from './contract/reports/junit-report.ts';
export { jsonReport } from './contract/reports/json-report.ts';
export type { CheckOutcome, ContractReport, Failure, FetchLike, Severity } from './contract/types.ts';
export type { ContractOptions } from './contract/options/contract-options.ts';
export type { ProxyOptions } from './proxy/proxy-options.ts';
export type { AppOptions, ScenarioOptions } from './server/app-options.ts';
export type { LiveOptions } from './live/live-options.ts';
export { ContractSetupError } from './contract/types.ts';
export { comparePlaces } from './contract/client/exchange-recorder.ts';
export type { Place } from './contract/types.ts';
export { generateDataset, DEFAULT_DATASET, type Dataset, type DatasetOptions } from './fixtures/generate-dataset.ts';
export { generateRecord } from './fixtures/generate-record.ts';
export { createRecordFactory, type ApiRecord, type RecordFactory } from './fixtures/record-factory.ts';
export { loadDataFile, DataFileError } from './fixtures/load-data-file.ts';
export { serializeDataset } from './fixtures/serialize-dataset.ts';
export type { Violation } from './proxy/validate-exchange.ts';
export type { DatasetStore } from './store/dataset-store.ts';
export type { LatencyRange } from './server/latency.ts';
export { loadSpec, SpecError, DEFAULT_SPEC_PATH, type LoadedSpec } from './spec/load-spec.ts';
export { listAssumptions, type Assumption } from './spec/list-assumptions.ts';
export { createSchemaValidator, type SchemaIssue, type SchemaValidator } from './spec/schema-validator.ts';
export type { paths, operations, components } from './types/openapi.ts';

/**
 * A record of the listing at path `P`, as the spec defines it: any listing the spec has, with no hand-written
 * type (the types are generated: `npm run generate`).
 *
 * @example
 * const first: ListingRecord<'/alert'> = (await client.GET('/alert')).data![0]!;
 */
export type ListingRecord<P extends ListingPath> = NonNullable<paths[P]['get']['responses'][200]['content']>['application/json'][number];
/** The paths of the spec's listings (a GET answering 200 with a JSON array). */
export type ListingPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': unknown[] } } } } } ? P : never;
}[keyof paths];
/** An alert record, as the spec defines it. */
export type Alert = ListingRecord<'/alert'>;
/** A sensor record, as the spec defines it. */
export type Sensor = ListingRecord<'/sensor'>;
/** An RFC 9457 problem document, as the spec defines it. */
export type Problem = components['schemas']['Problem'];

// --- The mock ---------------------------------------------------------------------------------------

/** The key the mock accepts when none is configured. Documented, and only ever meant for local use. */
export const DEFAULT_API_KEY = DEFAULT_KEY;

/**
 * Creates the mock server as a plain Hono app: use `app.request()` in tests, `app.fetch` as a fetch
 * handler, or serve it with @hono/node-server. Routes, query validation and auth come from the spec.
 *
 * @example
 * const app = createApp({ dataset: { seed: 7, counts: { alerts: 50 } } });
 * const response = await app.request('/alert?pageSize=5', { headers: { 'x-api-key': DEFAULT_API_KEY } });
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
export type NodeReplay = (request: NodeIncomingMessage, response: NodeServerResponse) => boolean;

/** The app, and the replay of its cached answers for node:http (what `tempmon serve` runs). */
export interface Mock {
  readonly app: Hono;
  /**
   * Replays the app's own stored answer to the same request (status, headers, bytes), before any Fetch API
   * object is made; false when the app must answer it. Only answers the app marked cacheable are stored.
   */
  readonly replay: NodeReplay;
  /** Hides the configured keys in a text about a request (a URL for a log line of your own, say). */
  readonly hideKeys: (text: string) => string;
}

/** Creates the app and its response cache (see {@link createApp}). *
 * @example
 * const mock = createMock({ apiKeys: ['team-key'] });
 * http.createServer(nodeListener(mock)).listen(4010);
 */
export function createMock(options?: AppOptions): Mock {
  return createMockInternal(options) as Mock;
}

/**
 * The node:http request listener of a mock: the replay of a stored answer, else the app.
 * With `log`, one line per request (method, path and query, status, duration; `format` `json` makes each
 * a pino JSON object); headers are never
 * logged, and a configured key sent in the URL is redacted. `http.createServer(nodeListener(createMock()))`
 * serves it.
 *
 * @example
 * http.createServer(nodeListener(createMock(), console.log, 'json')).listen(4010);
 */
export function nodeListener(mock: Mock, log?: (line: string) => void, format: 'compact' | 'json' = 'compact'): NodeRequestListener {
  return nodeListenerInternal(mock, log ? { format, sink: log } : undefined) as NodeRequestListener;
}

// --- The contract kit --------------------------------------------------------------------------------

/**
 * Runs the selected checks against every operation of the spec and grades the result. Never throws
 * for anything the target does; only (ContractSetupError) when the run looks misconfigured: the target
 * cannot be reached, refuses the key, or answers 404 to every listing.
 *
 * @example
 * const apiKey = process.env.TEMPMON_API_KEY;
 * const report = await runContract({ target: 'https://staging.example.com/v1', apiKey, document: loadSpec().document });
 * console.log(consoleReport(report, { apiKey, headerValues: [] }));
 * process.exitCode = report.conformant ? 0 : 1;
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

/** A running validating proxy (see {@link createProxy}). */
export interface ValidatingProxy {
  readonly app: Hono;
  /** Hides the key a request sent in its key header, in a text about that request (a log line). */
  readonly hideKeysOf: (headers: Readonly<Record<string, string | string[] | undefined>>) => (text: string) => string;
  /** The violations seen so far (the newest 1000) and how many there were in all. */
  readonly violations: () => { count: number; violations: Violation[] };
  /** Writes the records seen to the `record` file now. */
  readonly flush: () => void;
}

/**
 * A validating proxy: forwards GET listings to the target unchanged and checks every response with the
 * contract kit's response checks. Violations are logged, counted and listed at GET /__tempmon/violations.
 *
 * @example
 * const proxy = await createProxy({ target: 'https://staging.example.com/v1', spec: loadSpec() });
 * const answer = await proxy.app.request('/alert', { headers: { 'x-api-key': key } });
 * console.log(proxy.violations().count);
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
// Type-only: nothing here is emitted. Same = mutually assignable with the same keys. The option types are
// the internals' own (node-free modules); only the results, which name node:http, are declared twice.

type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
type Assert<T extends true> = T;
type _InStep = Assert<
  Same<Omit<Mock, 'replay'>, Omit<InternalMock, 'replay'>> | Same<ValidatingProxy, Awaited<ReturnType<typeof createProxyInternal>>>
>;
// node's own objects and listeners fit the structural types, both ways a caller meets them.
type _NodeFits = Assert<
  | (IncomingMessage extends NodeIncomingMessage ? true : false)
  | (ServerResponse extends NodeServerResponse ? true : false)
  | (NodeRequestListener extends RequestListener ? true : false)
>;
