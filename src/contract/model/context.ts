// What a check sees of the operation under test: the spec's facts, the run's settings and a way to send.
import type { PairTally } from './pair-tally.ts';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { ListingParameters } from '../../spec/listing-parameters.ts';
import type { Operation } from '../../spec/operations.ts';
import type { SendOptions } from '../client/http-client.ts';
import type { SchemaValidator } from '../../spec/schema-validator.ts';
import type { PrismValidator } from './prism.ts';
import type { Exchange } from '../types.ts';
import type { Listing } from './listing.ts';
import type { ListingVersions } from '../versions/listing-versions.ts';

/** A request of a group: a query of the operation, with options of its own. */
export interface Query {
  readonly query: Readonly<Record<string, string>>;
  readonly options?: SendOptions;
}

/** What a check knows of the operation under test and how it talks to the target. */
export interface OperationContext {
  readonly operation: Operation;
  readonly document: OpenAPIObject;
  readonly parameters: ListingParameters;
  /** Judges headers of exchanges (prism-http). */
  readonly prism: PrismValidator;
  /** Judges bodies and records: the spec's schemas as a server under test is held to them (its target view). */
  readonly schemas: SchemaValidator;
  readonly maxResponseTimeMs?: number;
  /** Seed of the generated requests, and how many each exploration sends. */
  readonly seed: number;
  readonly examples: number;
  /** Requests of the covering set an exploration judges, the first of its order (all when absent). */
  readonly covering?: number;
  /**
   * The first of them it judges (0 when absent): a trimmed plan's extension judges the covering set from where the
   * plan stopped (see run/extend-plan.ts).
   */
  readonly coveringFrom?: number;
  /** Special terms search_special_terms sends, the first of their order (all when absent). */
  readonly specialTerms?: number;
  /** The first of them it sends (0 when absent), as coveringFrom. */
  readonly specialTermsFrom?: number;
  /** The key the run sends (to derive wrong keys that resemble it); never shown. */
  readonly apiKey: string | undefined;
  /** Requests the run may have in flight: above 1, a check may send requests it will need ahead, at once. */
  readonly concurrency: number;
  /** Whether a path can be sent as written (a network target; an in-process fetch takes parsed Requests). */
  readonly pathsAsWritten: boolean;
  /** GET the operation's path with `query`; the exchange is recorded for the response checks. */
  send(query: Readonly<Record<string, string>>, options?: SendOptions): Promise<Exchange>;
  /**
   * GETs of the operation's path sent as one group, let through whole (see HttpClient.sendTogether); each
   * recorded in order, as `send` records one.
   */
  sendTogether(queries: readonly Query[]): Promise<Exchange>[];
  /**
   * GETs of the operation's path one after another on one connection of their own, each recorded in order;
   * absent where the kit cannot choose its connection (see HttpClient.sendOnOneConnection).
   */
  readonly sendOnOneConnection?: (queries: readonly Query[]) => Promise<Exchange[]>;
  /** The whole listing (cached; bounded by --max-pages). */
  listing(): Promise<Listing>;
  /** The listing if a check has asked for it, else undefined (nothing is sent). */
  listingRead(): Promise<Listing> | undefined;
  /** The pairs of parameter classes the explorations' covering set judged (one tally per operation). */
  readonly pairs: PairTally;
  /** The listing's versions as the run saw them, and the rule that judges an answer by them (one per operation). */
  readonly versions: ListingVersions;
}
