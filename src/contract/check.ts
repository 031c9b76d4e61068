import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { ListingParameters } from '../spec/listing-parameters.ts';
import type { Operation } from '../spec/operations.ts';
import type { SendOptions } from './http-client.ts';
import type { PrismValidator } from './prism.ts';
import type { Exchange, Failure } from './types.ts';

/** A failure as a check reports it; the runner adds the check's name and the operation. */
export type Finding = Omit<Failure, 'check' | 'operationId'>;

/** A check that does not apply here, and why. */
export interface Skip {
  readonly skip: string;
}

/** The records of an operation, read page by page at the largest page size. */
export interface Listing {
  readonly records: readonly Record<string, unknown>[];
  /** False when --max-pages stopped the enumeration before the end. */
  readonly complete: boolean;
  /** Why the listing could not be read, when a page was not a 200 array. */
  readonly problem?: string;
}

/** What a check knows of the operation under test and how it talks to the target. */
export interface OperationContext {
  readonly operation: Operation;
  readonly document: OpenAPIObject;
  readonly parameters: ListingParameters;
  readonly prism: PrismValidator;
  readonly maxResponseTimeMs?: number;
  /** GET the operation's path with `query`; the exchange is recorded for the response checks. */
  send(query: Readonly<Record<string, string>>, options?: SendOptions): Promise<Exchange>;
  /** The whole listing (cached; bounded by --max-pages). */
  listing(): Promise<Listing>;
}

interface CheckBase {
  /** Stable name, used by --checks and in every report. */
  readonly name: string;
  /** One line: what conforming means. */
  readonly description: string;
  /** Why the check does not apply to this run, if it does not (it is then reported as skipped). */
  skip?(context: OperationContext): string | undefined;
}

/** A check applied to every response the kit receives for an operation. */
export interface ResponseCheck extends CheckBase {
  readonly kind: 'response';
  inspect(exchange: Exchange, context: OperationContext): Finding[];
}

/** A check that sends its own requests to probe one behaviour. */
export interface ScenarioCheck extends CheckBase {
  readonly kind: 'scenario';
  run(context: OperationContext): Promise<Finding[] | Skip>;
}

/** Either kind of check. */
export type Check = ResponseCheck | ScenarioCheck;

/** The records of a 200 JSON array response, or undefined when the response is anything else. */
export function recordsOf(exchange: Exchange): Record<string, unknown>[] | undefined {
  const { response } = exchange;
  if (response?.status !== 200 || !Array.isArray(response.json)) return undefined;
  return response.json as Record<string, unknown>[];
}

/** A short, stable identity for a record: its id when it has one, else its JSON. */
export const identity = (record: unknown): string =>
  typeof record === 'object' && record !== null && typeof (record as { id?: unknown }).id === 'string'
    ? (record as { id: string }).id
    : JSON.stringify(record);

/** Cuts a value's text for a report line. */
export function preview(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A finding for a request whose response was not the listing it needed. */
export function unusable(exchange: Exchange, severity: Finding['severity'], what: string): Finding {
  const got = exchange.error ?? `status ${exchange.response?.status}, body ${preview(exchange.response?.text ?? '', 80)}`;
  return { severity, message: `${what}: the response was not a 200 JSON array`, expected: '200 with a JSON array', actual: got, exchange };
}

/** The query for page `page` of size `size`, with the spec's parameter names. */
export function pageQuery(context: OperationContext, page: number, size: number, extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, [context.parameters.page.name]: String(page), [context.parameters.pageSize.name]: String(size) };
}

/** The identities of records, to compare listings. */
export const identities = (records: readonly unknown[]): string[] => records.map(identity);
