import { describe, expect, it } from 'vitest';
import type { OrderKey } from '../../src/spec/collection-spec.ts';
import { compareRecords, describeOrder, sortByOrder } from '../../src/spec/record-order.ts';

const ORDER: OrderKey[] = [
  { field: 'created_at', direction: 'desc' },
  { field: 'id', direction: 'asc' },
];
const inDocumentedOrder = (records: Record<string, unknown>[]) => sortByOrder(records, ORDER);

describe('sortByOrder', () => {
  it('sorts by created_at descending, then id ascending, and puts undated records last', () => {
    const records = [
      { id: 'b', created_at: '2026-01-01T00:00:00Z' },
      { id: 'z' },
      { id: 'c', created_at: '2026-03-01T00:00:00+02:00' },
      { id: 'a', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'y', created_at: 'not a date' },
      { id: 'd', created_at: '2026-02-28T23:00:00Z' },
    ];
    expect(inDocumentedOrder(records).map((r) => r.id)).toEqual(['d', 'c', 'a', 'b', 'y', 'z']);
  });

  it('does not modify its input', () => {
    const records = [
      { id: 'a', created_at: '2020-01-01T00:00:00Z' },
      { id: 'b', created_at: '2021-01-01T00:00:00Z' },
    ];
    inDocumentedOrder(records);
    expect(records.map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('compareRecords', () => {
  it('reads numbers as numbers, ascending or descending, and puts records without the key last', () => {
    const order: OrderKey[] = [{ field: 'rank', direction: 'asc' }];
    const records = [{ rank: 10 }, { rank: 9 }, {}, { rank: 100 }];
    expect(sortByOrder(records, order)).toEqual([{ rank: 9 }, { rank: 10 }, { rank: 100 }, {}]);
    const down: OrderKey[] = [{ field: 'rank', direction: 'desc' }];
    expect(sortByOrder(records, down)).toEqual([{ rank: 100 }, { rank: 10 }, { rank: 9 }, {}]);
    expect(compareRecords(order, { rank: 1 }, { rank: 1 })).toBe(0);
  });

  it('describes the order in words', () => {
    expect(describeOrder(ORDER)).toBe('created_at descending, then id ascending');
    expect(describeOrder([])).toBe('no order');
  });
});
