import type { Operation, ResponseSpec } from '../../spec/operations.ts';

/**
 * The response the spec documents for `status`: the exact code first, then a range such as `4XX`,
 * then `default`.
 */
export function documentedResponse(operation: Operation, status: number): ResponseSpec | undefined {
  const exact = operation.responses.find((r) => r.status === String(status));
  const range = operation.responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`);
  return exact ?? range ?? operation.responses.find((r) => r.status === 'default');
}

/**
 * Grading of what the spec says about a status. The interface shows only the success response; every
 * error status and its body are our assumption, so a deviation there is a warning.
 */
export const severityForStatus = (status: number): 'error' | 'warning' => (status >= 400 ? 'warning' : 'error');
