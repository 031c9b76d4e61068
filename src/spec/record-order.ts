import type { OrderKey } from './collection-spec.ts';
import type { ApiRecord } from './records.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * What a value sorts by: a date (ISO 8601 text) by its instant, so offsets and precision do not
 * matter; a number as it is; other text by code units. Undefined when the record has no usable value.
 */
function sortValue(value: unknown): number | string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  if (ISO_DATE.test(value)) {
    const time = Date.parse(value);
    return Number.isNaN(time) ? undefined : time;
  }
  return value;
}

/**
 * Compares two records by a listing's sort keys (its `x-order`): negative when `a` comes first. At each
 * key, a record without a usable value (absent, or text among dates) comes after one with it.
 */
export function compareRecords(order: readonly OrderKey[], a: ApiRecord, b: ApiRecord): number {
  for (const { field, direction } of order) {
    let [x, y] = [sortValue(a[field]), sortValue(b[field])];
    // A date or number beside text (`not a date` among dates): the text is what cannot be placed.
    if (typeof x === 'string' && typeof y === 'number') x = undefined;
    if (typeof y === 'string' && typeof x === 'number') y = undefined;
    if (x === undefined || y === undefined) {
      if (x !== y) return x === undefined ? 1 : -1;
      continue;
    }
    if (x === y) continue;
    const ascending = x < y ? -1 : 1;
    return direction === 'asc' ? ascending : -ascending;
  }
  return 0;
}

/** Whether both records carry a usable value of the first sort key, so their order can be judged. */
export const comparable = (order: readonly OrderKey[], a: ApiRecord, b: ApiRecord): boolean =>
  order.length > 0 && sortValue(a[order[0]!.field]) !== undefined && sortValue(b[order[0]!.field]) !== undefined;

/** The records in the listing's order (a stable sort; records it cannot place keep their relative order). Returns a new array. */
export function sortByOrder(records: readonly ApiRecord[], order: readonly OrderKey[]): ApiRecord[] {
  return order.length === 0 ? [...records] : [...records].sort((a, b) => compareRecords(order, a, b));
}

/** The order in words: `created_at descending, then id ascending`. */
export const describeOrder = (order: readonly OrderKey[]): string =>
  order.map(({ field, direction }) => `${field} ${direction === 'asc' ? 'ascending' : 'descending'}`).join(', then ') || 'no order';
