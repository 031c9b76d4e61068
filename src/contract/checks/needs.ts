import { describeAnswers, noEvidence, recordsOf, type Skip } from '../check.ts';
import type { Exchange } from '../types.ts';

/**
 * Evidence for a response check: at least one response with `status` among the exchanges. Without one,
 * a check of 200 bodies or headers has seen nothing it judges.
 */
export const needsResponse =
  (status: number) =>
  (exchanges: readonly Exchange[]): Skip | undefined =>
    exchanges.some((e) => e.response?.status === status)
      ? undefined
      : noEvidence(`no ${status} response to inspect: ${describeAnswers(exchanges)}`);

/** Evidence for a check of records: at least one record in a 200 JSON array. */
export const needsRecord = (exchanges: readonly Exchange[]): Skip | undefined =>
  exchanges.some((e) => (recordsOf(e)?.length ?? 0) > 0)
    ? undefined
    : noEvidence(`no record to inspect in any 200 JSON array: ${describeAnswers(exchanges)}`);
