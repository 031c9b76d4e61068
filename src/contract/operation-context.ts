import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { listingParameters } from '../spec/listing-parameters.ts';
import type { Operation } from '../spec/operations.ts';
import { firstPage, largestPageSize, pageQuery, type Listing, type OperationContext } from './check.ts';
import { readListing } from './read-listing.ts';
import type { HttpClient } from './http-client.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import type { PrismValidator } from './prism.ts';
import type { Exchange } from './types.ts';

/** Settings of a run that shape what checks send. */
export interface ContextSettings {
  readonly maxPages: number;
  readonly maxResponseTimeMs?: number;
  readonly seed: number;
  readonly examples: number;
  readonly apiKey: string | undefined;
}

/**
 * Builds the context of one operation. Every exchange it sends is appended to `exchanges`, so the
 * response checks see all of them, whichever check sent them.
 */
export function createOperationContext(
  operation: Operation,
  document: OpenAPIObject,
  client: HttpClient,
  judges: { readonly prism: PrismValidator; readonly schemas: SchemaValidator },
  settings: ContextSettings,
  exchanges: Exchange[],
): OperationContext {
  const parameters = listingParameters(operation);
  let listing: Promise<Listing> | undefined;

  const context: OperationContext = {
    operation,
    document,
    parameters,
    prism: judges.prism,
    schemas: judges.schemas,
    seed: settings.seed,
    examples: settings.examples,
    apiKey: settings.apiKey,
    ...(settings.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: settings.maxResponseTimeMs } : {}),
    async send(query, options) {
      const exchange = await client.send(operation.operationId, operation.path, query, options);
      exchanges.push(exchange);
      return exchange;
    },
    listing() {
      listing ??= readListing(
        (n, s) => context.send(pageQuery(context, n, s)),
        firstPage(parameters),
        largestPageSize(parameters),
        settings.maxPages,
        settings.seed,
      );
      return listing;
    },
    listingRead: () => listing,
  };
  return context;
}
