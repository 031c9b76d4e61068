import type { OperationObject } from 'openapi3-ts/oas31';

/** One sort key of a listing, from `x-order` (`created_at desc`). */
export interface OrderKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/** How creation times spread back from the reference date: record i lies `spanDays * ln(1 + i / scale)` days back. */
export interface Timeline {
  readonly spanDays: number;
  readonly scale: number;
}

/** How the mock names and generates the records of one listing, from its `x-collection`. */
export interface CollectionSpec {
  /** Key of the collection in data files (`{ "alerts": [...] }`) and the `--<key> N` option. */
  readonly key: string;
  /** The seeded random stream of its records: unique per listing, so adding one never shifts another. */
  readonly stream: number;
  readonly defaultCount: number;
  readonly timeline: Timeline;
}

/** The extension holding a listing's sort keys. */
export const ORDER = 'x-order';
/** The extension holding how the mock names and generates a listing's records. */
export const COLLECTION = 'x-collection';

const DEFAULT_COUNT = 100;
const DEFAULT_TIMELINE: Timeline = { spanDays: 30, scale: 30 };
/** Streams below this are for explicit `stream` values (0 is the shared pools'); derived ones lie above. */
const DERIVED_STREAMS = 1 << 16;

/** The sort keys of `x-order`; empty when the listing promises no order. Throws on a malformed entry. */
export function orderOf(operation: OperationObject, id: string): OrderKey[] {
  const order: unknown = operation[ORDER] ?? [];
  if (!Array.isArray(order)) throw new Error(`operation ${id}: ${ORDER} must be a list such as [created_at desc, id asc]`);
  return order.map((entry) => {
    const match = typeof entry === 'string' ? /^\s*(\S+)\s+(asc|desc)\s*$/.exec(entry) : null;
    if (!match) throw new Error(`operation ${id}: ${ORDER} entry ${JSON.stringify(entry)} must read "<field> asc" or "<field> desc"`);
    return { field: match[1]!, direction: match[2] as 'asc' | 'desc' };
  });
}

/**
 * The `x-collection` of a listing at `path`, every member defaulted: `key` from the path's last segment
 * (`/shipment` → `shipments`), `stream` derived from the key, 100 records, a 30-day timeline.
 */
export function collectionOf(operation: OperationObject, path: string, id: string): CollectionSpec {
  const raw: unknown = operation[COLLECTION] ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`operation ${id}: ${COLLECTION} must be an object`);
  const given = raw as Record<string, unknown>;
  const fail = (member: string, expected: string): never => {
    throw new Error(`operation ${id}: ${COLLECTION}.${member} must be ${expected}, got ${JSON.stringify(given[member])}`);
  };
  const integer = (member: string, min: number, max: number, fallback: number, value: unknown = given[member]): number => {
    if (value === undefined) return fallback;
    return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
      ? (value as number)
      : fail(member, `an integer in ${min}..${max}`);
  };
  const segment =
    path
      .split('/')
      .filter((s) => s !== '' && !s.startsWith('{'))
      .pop() ?? 'records';
  const key = given.key ?? (segment.endsWith('s') ? segment : `${segment}s`);
  if (typeof key !== 'string' || !/^[a-z][a-z0-9-]*$/.test(key)) fail('key', 'lower-case letters, digits and dashes');
  const timeline = given.timeline ?? {};
  if (typeof timeline !== 'object' || timeline === null) fail('timeline', 'an object { span-days, scale }');
  const t = timeline as Record<string, unknown>;
  const positive = (member: string, value: unknown, fallback: number) =>
    value === undefined
      ? fallback
      : typeof value === 'number' && value > 0 && Number.isFinite(value)
        ? value
        : fail(member, 'a positive number');
  return {
    key: key as string,
    stream: integer('stream', 1, DERIVED_STREAMS - 1, derivedStream(key as string)),
    defaultCount: integer('default-count', 0, 10_000_000, DEFAULT_COUNT),
    timeline: {
      spanDays: positive('timeline.span-days', t['span-days'], DEFAULT_TIMELINE.spanDays),
      scale: positive('timeline.scale', t.scale, DEFAULT_TIMELINE.scale),
    },
  };
}

/** A stream from the key alone (FNV-1a), above the explicit ones, so it never moves when listings are added. */
function derivedStream(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return DERIVED_STREAMS + (hash % (0x7fffffff - DERIVED_STREAMS));
}
