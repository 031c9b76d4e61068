import type { Operation, QueryParameter } from './operations.ts';

/** The query parameters whose meaning the listings implement, by role: their names as the spec declares them. */
export const LISTING_PARAMETERS = { search: 'search', page: 'page', pageSize: 'pageSize' } as const;

/** The listing parameters of an operation with their spec schemas. */
export interface ListingParameters {
  readonly search: QueryParameter;
  readonly page: QueryParameter;
  readonly pageSize: QueryParameter;
}

/**
 * Finds the listing parameters of `operation`, failing when the spec lacks one or gives page or
 * pageSize no numeric default: the server and the contract checks both depend on them.
 */
export function listingParameters(operation: Operation): ListingParameters {
  const find = (role: keyof typeof LISTING_PARAMETERS): QueryParameter => {
    const parameter = operation.queryParameters.find((p) => p.name === LISTING_PARAMETERS[role]);
    if (!parameter) throw new Error(`operation ${operation.operationId} does not declare the query parameter ${LISTING_PARAMETERS[role]}`);
    if (role !== 'search' && typeof parameter.schema.default !== 'number') {
      throw new Error(`operation ${operation.operationId}: query parameter ${parameter.name} needs a numeric default in the spec`);
    }
    return parameter;
  };
  return { search: find('search'), page: find('page'), pageSize: find('pageSize') };
}
