import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { OperationContext } from '../contract/model/context.ts';
import { createListingVersions } from '../contract/versions/listing-versions.ts';
import type { ResponseCheck } from '../contract/model/check.ts';
import { contentTypeConformance } from '../contract/checks/content-type-conformance.ts';
import { notAServerError } from '../contract/checks/not-a-server-error.ts';
import { responseSchemaConformance } from '../contract/checks/response-schema-conformance.ts';
import { statusCodeConformance } from '../contract/checks/status-code-conformance.ts';
import { undocumentedFields } from '../contract/checks/undocumented-fields.ts';
import type { PrismValidator } from '../contract/model/prism.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import type { Exchange, Severity } from '../contract/types.ts';
import { listingParameters } from '../spec/listing-parameters.ts';
import { createPairTally } from '../contract/model/pair-tally.ts';
import type { Operation } from '../spec/operations.ts';

/** The contract kit's checks that judge a single response: the proxy applies them to live traffic. */
const CHECKS: readonly ResponseCheck[] = [
  notAServerError,
  statusCodeConformance,
  contentTypeConformance,
  responseSchemaConformance,
  undocumentedFields,
];

/** One way a proxied exchange broke the contract. */
export interface Violation {
  readonly time: string;
  readonly operationId: string;
  readonly status?: number;
  readonly check: string;
  readonly severity: Severity;
  readonly message: string;
}

/** Judges proxied exchanges of one operation with the same checks `tempmon contract` uses. */
export function exchangeValidator(
  operation: Operation,
  document: OpenAPIObject,
  judges: { readonly prism: PrismValidator; readonly schemas: SchemaValidator },
) {
  // Only what response checks read; the probing parts of a context are never called by them.
  const context = {
    operation,
    document,
    ...judges,
    parameters: listingParameters(operation),
    seed: 0,
    examples: 0,
    apiKey: undefined,
    concurrency: 1,
    pathsAsWritten: false,
    send: () => Promise.reject(new Error('the proxy sends no probes')),
    sendTogether: () => [Promise.reject(new Error('the proxy sends no probes'))],
    listing: () => Promise.reject(new Error('the proxy reads no listings')),
    listingRead: () => undefined,
    pairs: createPairTally(),
    versions: createListingVersions(
      { readHead: () => Promise.reject(new Error('the proxy reads no listings')), countHeader: undefined, matches: () => false },
      0,
    ),
  } satisfies OperationContext;
  return (exchange: Exchange): Violation[] => {
    const time = new Date().toISOString();
    return CHECKS.flatMap((check) =>
      check.inspect(exchange, context).map((finding) => ({
        time,
        operationId: operation.operationId,
        ...(exchange.response ? { status: exchange.response.status } : {}),
        check: check.name,
        severity: finding.severity,
        message: finding.message,
      })),
    );
  };
}
