import { recordsOf } from '../records.ts';
import type { ResponseCheck } from '../model/check.ts';

type Needs = NonNullable<ResponseCheck['needs']>;

/**
 * Evidence for a response check: at least one response with `status`. Without one, a check of 200 bodies or
 * headers has seen nothing it judges.
 */
export const needsResponse = (status: number): Needs => ({
  found: (exchange) => exchange.response?.status === status,
  missing: `no ${status} response to inspect`,
});

/** Evidence for a check of records: at least one record in a 200 JSON array. */
export const needsRecord: Needs = {
  found: (exchange) => (recordsOf(exchange)?.length ?? 0) > 0,
  missing: 'no record to inspect in any 200 JSON array',
};
