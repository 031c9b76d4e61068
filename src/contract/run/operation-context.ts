import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { listingParameters } from '../../spec/listing-parameters.ts';
import type { Operation } from '../../spec/operations.ts';
import { firstPage, largestPageSize } from '../model/listing-query.ts';
import type { Listing } from '../model/listing.ts';
import type { OperationContext } from '../model/context.ts';
import { listingPages, readListing } from '../moment/read-listing.ts';
import type { HttpClient, SendOptions } from '../client/http-client.ts';
import type { Judges } from '../model/judges.ts';
import type { Track } from '../client/exchange-recorder.ts';
import { createPairTally } from '../model/pair-tally.ts';
import { createCatchUp, type CatchUp } from '../model/catch-up.ts';

/** Settings of a run that shape what checks send: what a context states of them, and the pages a listing is read to. */
export interface ContextSettings
  extends Pick<
    OperationContext,
    'maxResponseTimeMs' | 'seed' | 'examples' | 'covering' | 'specialTerms' | 'apiKey' | 'concurrency' | 'pathsAsWritten'
  > {
  readonly maxPages: number;
}

/** What a context may share with another, or take from the run. */
export interface ContextLinks {
  /** The context whose listing (read once, its exchanges tracked there), pairs tally and catch-up budget it shares. */
  readonly shared?: OperationContext;
  /** The priority of the context's requests in the client's queue (see SendOptions.priority) unless they say. */
  readonly priority?: number;
  /** The operation's catch-up budget, for a context that reads the listing afresh (a re-run) but waits within it. */
  readonly catchUp?: CatchUp;
}

/**
 * Builds the context of one operation. Every request it sends is handed to `track` when it is made (so its
 * place is the order of the requests, whatever order answers come back in), for the response checks to see
 * all of them, whichever check sent them; `links` say what it shares with another context (see ContextLinks).
 */
export function createOperationContext(
  operation: Operation,
  document: OpenAPIObject,
  client: HttpClient,
  judges: Judges,
  settings: ContextSettings,
  track: Track,
  { shared, priority = 0, catchUp = createCatchUp() }: ContextLinks = {},
): OperationContext {
  const parameters = listingParameters(operation);
  const withPriority = (options: SendOptions | undefined) => (priority === 0 ? options : { priority, ...options });
  /** The client's asks for queries of the operation (its path, or a variant of it). */
  const asksOf = (queries: Parameters<OperationContext['sendTogether']>[0]) =>
    queries.map(({ query, options }) => ({ path: options?.path ?? operation.path, query, options: withPriority(options) }));
  /** Each request's place taken when the sequence starts, in order, as `send` takes one when it is made. */
  const oneConnection =
    (sendAll: NonNullable<HttpClient['sendOnOneConnection']>): NonNullable<OperationContext['sendOnOneConnection']> =>
    (queries) => {
      const sent = sendAll(operation.operationId, asksOf(queries));
      for (const [i] of queries.entries()) track(sent.then((exchanges) => exchanges[i]!));
      return sent;
    };
  let listing: Promise<Listing> | undefined;

  const context: OperationContext = {
    operation,
    document,
    parameters,
    prism: judges.prism,
    schemas: judges.schemas,
    seed: settings.seed,
    examples: settings.examples,
    ...(settings.covering !== undefined ? { covering: settings.covering } : {}),
    ...(settings.specialTerms !== undefined ? { specialTerms: settings.specialTerms } : {}),
    apiKey: settings.apiKey,
    concurrency: settings.concurrency,
    pathsAsWritten: settings.pathsAsWritten,
    ...(settings.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: settings.maxResponseTimeMs } : {}),
    send(query, options) {
      const exchange = client.send(operation.operationId, options?.path ?? operation.path, query, withPriority(options));
      track(exchange);
      return exchange;
    },
    sendTogether(queries) {
      const exchanges = client.sendTogether(operation.operationId, asksOf(queries));
      for (const exchange of exchanges) track(exchange);
      return exchanges;
    },
    ...(client.sendOnOneConnection ? { sendOnOneConnection: oneConnection(client.sendOnOneConnection) } : {}),
    listing() {
      if (shared) return shared.listing();
      listing ??= readListing(listingPages(context), firstPage(parameters), largestPageSize(parameters), settings.maxPages, settings.seed);
      return listing;
    },
    listingRead: () => (shared ? shared.listingRead() : listing),
    pairs: shared ? shared.pairs : createPairTally(),
    catchUp: shared ? shared.catchUp : catchUp,
  };
  return context;
}
