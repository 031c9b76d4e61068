// Checks that compare answers with each other (the same request twice, pages that must tile) have their findings
// judged again by the versions rule, each answer alone: answers read from versions apart are no finding; answers no
// version gives still are.
import { describe, expect, it } from 'vitest';
import { paginationConsistency } from '../../../src/contract/checks/pagination-consistency.ts';
import { stableOrder } from '../../../src/contract/checks/stable-order.ts';
import { defaultPageSize } from '../../../src/contract/checks/default-page-size.ts';
import { emptySearchNoFilter } from '../../../src/contract/checks/empty-search-no-filter.ts';
import { totalCountHeader } from '../../../src/contract/checks/total-count-header.ts';
import type { CheckOutcome, Finding } from '../../../src/contract/types.ts';
import { rejudged } from '../../../src/contract/versions/rejudge.ts';
import { alertsContext } from '../versions/alerts-context.ts';

type Json = Record<string, unknown>;
const findingsOf = (outcome: unknown) =>
  (Array.isArray(outcome) ? outcome : ((outcome as { findings?: Finding[] }).findings ?? [])) as Finding[];
/** What a check's findings come to once judged again as the run judges them (see rejudged): their messages. */
const messages = async (outcome: unknown) => {
  const [judged] = await rejudged([{ failures: findingsOf(outcome) } as unknown as CheckOutcome]);
  return judged!.failures.map((f) => f.message);
};
const plainPage = (page: number, size: number) => (records: readonly Json[]) => records.slice((page - 1) * size, page * size);

/** A context whose first page of 10 has its first two alerts swapped the second time it is read (the listing read). */
async function swappedSecondRead() {
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
  return context;
}

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
    expect(await messages(await stableOrder.run(context))).toEqual([]);
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it('the same alerts in another order the second time is still its error', async () => {
    const context = await swappedSecondRead();
    expect(await messages(await stableOrder.run(context))).toContain('the same request gave different records or order');
  });
});

describe('a finding the versions cannot judge says why', () => {
  it('the same alerts in another order: the head read so fits no window of the listing, and the finding goes on with that said (for an inconclusive reason)', async () => {
    const context = await swappedSecondRead();
    const [judged] = await rejudged([{ failures: findingsOf(await stableOrder.run(context)) } as unknown as CheckOutcome]);
    const [failure] = judged!.failures;
    expect(failure?.rejudge).toBeUndefined();
    expect(failure?.unplaced).toMatch(/^the listing changed otherwise than at its head and tail/);
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
    expect(await messages(await paginationConsistency.run(context))).toEqual([]);
  });

  it('pages of size 2 after the first starting one alert early are still its error, whatever the versions', async () => {
    const { context } = await alertsContext(undefined, {
      page: (records, page, size) => {
        const start = size === 2 && page > 1 ? (page - 1) * size - 1 : (page - 1) * size;
        return records.slice(start, start + size);
      },
    });
    await context.listing();
    // Page 2 of size 2 shows the listing as an alert arriving would have moved it, and no read of the head showed one.
    expect(await messages(await paginationConsistency.run(context))).toContainEqual(
      expect.stringMatching(
        /^pages 1-3 of size 2 differ from page 1 of size 6: an answer it compares is given by no version \(it shows the listing as records arriving would have moved it/,
      ),
    );
  });
});

describe('the checks comparing a default page, an empty search and the count with another answer judge each by the versions', () => {
  /** A context whose target takes in one more alert before the `nth` request matching `matches` (counted from the listing's read on). */
  async function arrivingBefore(nth: number, matches: (url: URL) => boolean) {
    let seen = 0;
    const grow = { arrive: (_: number) => 0 };
    const alerts = await alertsContext((request) => {
      const url = new URL(request.url);
      if (matches(url) && ++seen === nth) grow.arrive(1);
      return undefined;
    });
    grow.arrive = alerts.arrive;
    await alerts.context.listing();
    seen = 0;
    return alerts.context;
  }

  it('default_page_size: an alert arriving between the default page and page 1 of the default size is no finding', async () => {
    const context = await arrivingBefore(1, (url) => url.searchParams.get('pageSize') === '20');
    expect(await messages(await defaultPageSize.run(context))).toEqual([]);
  });

  it('empty_search_no_filter: an alert arriving between the first page and the first page of search= is no finding', async () => {
    const context = await arrivingBefore(1, (url) => url.searchParams.get('search') === '');
    expect(await messages(await emptySearchNoFilter.run(context))).toEqual([]);
  });

  it('total_count_header: a count one higher than the listing as read, an alert having arrived since, is no finding; one too high still is', async () => {
    const context = await arrivingBefore(1, (url) => url.searchParams.get('pageSize') === '1');
    expect(await messages(await totalCountHeader.run(context))).toEqual([]);
    const { context: off } = await alertsContext(undefined, { total: (count) => count + 1 });
    await off.listing();
    // No version gives a count one too high: the finding stands, naming the closest version.
    expect(await messages(await totalCountHeader.run(off))).toContainEqual(
      expect.stringMatching(
        /^X-Total-Count differs from the records enumerated: an answer it compares is given by no version \(.*the closest, the listing of \d+ records/,
      ),
    );
  });
});
