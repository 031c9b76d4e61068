// Checks that compare answers with each other (the same request twice, pages that must tile) judge each answer by
// the versions rule first: answers read from versions apart are no finding; answers no version gives still are.
import { describe, expect, it } from 'vitest';
import { paginationConsistency } from '../../../src/contract/checks/pagination-consistency.ts';
import { stableOrder } from '../../../src/contract/checks/stable-order.ts';
import type { Finding } from '../../../src/contract/types.ts';
import { alertsContext } from '../moment/alerts-context.ts';

type Json = Record<string, unknown>;
const findingsOf = (outcome: unknown) =>
  (Array.isArray(outcome) ? outcome : ((outcome as { findings?: Finding[] }).findings ?? [])) as Finding[];
const messages = (outcome: unknown) => findingsOf(outcome).map((f) => f.message);
const plainPage = (page: number, size: number) => (records: readonly Json[]) => records.slice((page - 1) * size, page * size);

describe('stable_order judges its two answers by the versions of the listing', () => {
  it('an alert arriving between the two requests is no finding: each answer is a version the run saw', async () => {
    let asked = 0;
    const grow = { arrive: (_: number) => 0 };
    const { context, arrive } = await alertsContext((request) => {
      const url = new URL(request.url);
      if (url.searchParams.get('pageSize') === '10' && !url.searchParams.has('search') && url.searchParams.get('page') === '1') {
        asked += 1;
        if (asked === 2) grow.arrive(1);
      }
      return undefined;
    });
    grow.arrive = arrive;
    await context.listing();
    expect(messages(await stableOrder.run(context))).toEqual([]);
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it('the same alerts in another order the second time is still its error', async () => {
    let asked = 0;
    const { context } = await alertsContext(undefined, {
      page: (records, page, size) => {
        const rows = plainPage(page, size)(records);
        if (size !== 10 || page !== 1) return rows;
        asked += 1;
        return asked === 2 ? [rows[1]!, rows[0]!, ...rows.slice(2)] : rows;
      },
    });
    await context.listing();
    expect(messages(await stableOrder.run(context))).toContain('the same request gave different records or order');
  });
});

describe('pagination_consistency judges the pages it compares by the versions of the listing', () => {
  it('an alert arriving between pages 1-3 of size 2 and page 1 of size 6 is no finding', async () => {
    const grow = { arrive: (_: number) => 0 };
    const { context, arrive } = await alertsContext((request) => {
      if (new URL(request.url).searchParams.get('pageSize') === '6') grow.arrive(1);
      return undefined;
    });
    grow.arrive = arrive;
    await context.listing();
    expect(messages(await paginationConsistency.run(context))).toEqual([]);
  });

  it('pages of size 2 after the first starting one alert early are still its error, whatever the versions', async () => {
    const { context } = await alertsContext(undefined, {
      page: (records, page, size) => {
        const start = size === 2 && page > 1 ? (page - 1) * size - 1 : (page - 1) * size;
        return records.slice(start, start + size);
      },
    });
    await context.listing();
    expect(messages(await paginationConsistency.run(context))).toContain('pages 1-3 of size 2 differ from page 1 of size 6');
  });
});
