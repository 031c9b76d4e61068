import { describe, expect, it } from 'vitest';
import { countAgain, recheckOf } from '../../../src/contract/moment/at-once.ts';
import { pageQuery } from '../../../src/contract/model/listing-query.ts';
import { alertsContext } from './alerts-context.ts';

describe('rechecks: the requests of a finding sent again, which may not be able to tell', () => {
  it('countAgain counts a listing that grew since it was read, reading further when it must, up to --max-pages', async () => {
    const { context, arrive } = await alertsContext();
    const listing = await context.listing();
    expect(listing).toMatchObject({ complete: true, pages: 3 });
    arrive(250);
    // The pages it had and two more: 5 pages of 100 hold 450.
    expect(await countAgain(context, listing)).toMatchObject({ count: 450 });
    arrive(350);
    // Past 5 pages: all of it again over 10.
    expect(await countAgain(context, { ...listing, maxPages: 10 })).toMatchObject({ count: 800 });
    expect(await countAgain(context, { ...listing, maxPages: 7 })).toBeUndefined();
  });

  it('a recheck whose answers are not all 200 arrays cannot tell (undefined), rather than agreeing', async () => {
    const { context } = await alertsContext((request) =>
      new URL(request.url).searchParams.get('page') === '2' ? new Response('{}', { status: 503 }) : undefined,
    );
    const recheck = recheckOf(context, [pageQuery(context, 1, 10), pageQuery(context, 2, 10)], () => true);
    expect(await recheck()).toBeUndefined();
    const agreeing = recheckOf(context, [pageQuery(context, 1, 10), pageQuery(context, 3, 10)], () => false);
    expect(await agreeing()).toBe(false);
  });
});
