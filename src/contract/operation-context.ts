import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { listingParameters } from '../spec/listing-parameters.ts';
import type { Operation } from '../spec/operations.ts';
import { describeAnswer, identity, recordsOf, type Listing, type OperationContext } from './check.ts';
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
      listing ??= enumerate(context, settings.maxPages);
      return listing;
    },
  };
  return context;
}

async function enumerate(context: OperationContext, maxPages: number): Promise<Listing> {
  const { page, pageSize } = context.parameters;
  const size = typeof pageSize.schema.maximum === 'number' ? pageSize.schema.maximum : Number(pageSize.schema.default);
  const first = typeof page.schema.minimum === 'number' ? page.schema.minimum : 1;
  const records: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (let n = 0; n < maxPages; n += 1) {
    const exchange = await context.send({ [page.name]: String(first + n), [pageSize.name]: String(size) });
    const batch = recordsOf(exchange);
    if (!batch) {
      const why = describeAnswer(exchange) + (exchange.response?.status === 200 ? ', not a JSON array' : '');
      return { records, complete: false, problem: `page ${first + n} of size ${size} got ${why}`, pages: n + 1 };
    }
    const repeated = batch.find((record) => seen.has(identity(record)));
    if (repeated) {
      const problem = `page ${first + n} of size ${size} repeats ${identity(repeated)}, already on an earlier page`;
      return { records, complete: false, problem, repeated: { id: identity(repeated), page: first + n }, pages: n + 1 };
    }
    for (const record of batch) seen.add(identity(record));
    records.push(...batch);
    if (batch.length < size) return { records, complete: true, pages: n + 1 };
  }
  return { records, complete: false, pages: maxPages };
}
