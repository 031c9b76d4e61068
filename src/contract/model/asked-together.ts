// Answers compared where no version the run read knows the records: asked again at one moment.
import type { Exchange } from '../types.ts';
import type { OperationContext } from './context.ts';

/** Rounds of asking the compared requests again together. */
const ROUNDS = 3;

/**
 * Requests whose answers are compared, where the versions of the listing know none of the records (pages past
 * --max-pages), asked again together, up to 3 times, until `agree` holds for one round's answers: read at moments
 * apart, answers differ as the listing moved between them; read at one moment, only as the target errs. `answers`:
 * the round that agreed, else the last.
 *
 * @example
 * const again = await askedTogether(context, [pageQuery(context, 7, 100), pageQuery(context, 8, 100)], ([a, b]) => disjoint(a, b));
 * if (!again.agreed) findings.push({ ...finding, exchanges: [...finding.exchanges, ...again.answers] });
 */
export async function askedTogether(
  context: Pick<OperationContext, 'sendTogether'>,
  queries: readonly Record<string, string>[],
  agree: (answers: readonly Exchange[]) => boolean,
): Promise<{ readonly agreed: boolean; readonly answers: readonly Exchange[] }> {
  let answers: Exchange[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    answers = await Promise.all(context.sendTogether(queries.map((query) => ({ query }))));
    if (agree(answers)) return { agreed: true, answers };
  }
  return { agreed: false, answers };
}

/** How a finding says its answers were asked again together and still disagreed. */
export const AGAIN_TOGETHER = `, and again when asked together ${ROUNDS} times`;

/**
 * Where the listing ends, by its pages `atEnd` and `atEnd + 1` at `size` read together (their records, undefined
 * when an answer is no array): undefined when they do not show it (it lies further on, or before them).
 *
 * @example
 * endShown(3, 100, [page3, page4]); // 250 when page 3 holds 50 records and page 4 none
 */
export function endShown(atEnd: number, size: number, [a, b]: readonly (readonly unknown[] | undefined)[]): number | undefined {
  if (!a || !b) return undefined;
  if (b.length === 0) return a.length === 0 && atEnd > 1 ? undefined : (atEnd - 1) * size + a.length;
  return b.length < size ? atEnd * size + b.length : undefined;
}

/**
 * How many records page `page` of `size` holds of a listing of `total` records.
 *
 * @example
 * pageHolds(250, 3, 100); // 50
 */
export const pageHolds = (total: number, page: number, size: number): number => Math.min(size, Math.max(0, total - (page - 1) * size));
