import { describe, expect, it } from 'vitest';
import { lagFollowed } from '../../../src/contract/explore/lag-followed.ts';
import { growing } from '../targets/live-targets.ts';
import { headQuery } from '../../../src/contract/model/head-read.ts';
import { alertsContext } from '../versions/alerts-context.ts';

/** The head read a few times as records arrive: the run saw the listing move. */
async function sawArrivals(context: Awaited<ReturnType<typeof alertsContext>>['context']) {
  await context.listing();
  for (let n = 0; n < 4; n += 1) await context.send(headQuery(context));
  const seen = context.versions.history.seen()!;
  expect(seen.newest).toBeGreaterThan(seen.oldest);
}

describe('an index seen behind its records, followed as records arrive', () => {
  it('measures the wait of records searched for from their arrival until found: at least the rounds it took', async () => {
    // A record every 2 moments (a moment a request), the index 30 moments behind: each arrival is found rounds later,
    // each round at least 50 ms after the one before.
    const { context } = await alertsContext(undefined, { indexed: (t) => Math.max(1, t - 30) }, growing(2));
    await context.listing();
    // A lag measured before, shorter than the rounds the index takes: the follow measures the longer one.
    context.versions.history.noteSearchLag(300);
    await lagFollowed(context);
    expect(context.versions.history.indexLag()).toBeGreaterThan(300);
  });

  it('looks for a lag no search saw when records arrived during the run: an index behind is found and measured', async () => {
    const { context } = await alertsContext(undefined, { indexed: (t) => Math.max(1, t - 30) }, growing(2));
    await sawArrivals(context);
    expect(context.versions.history.indexLag()).toBe(0);
    await lagFollowed(context);
    // A record every 2 moments, found 30 moments later, each round at least 50 ms: several rounds' wait.
    expect(context.versions.history.indexLag()).toBeGreaterThan(200);
  });

  it('with no index behind, looks only briefly (one search a round), notes no lag', async () => {
    const searches: string[] = [];
    const { context } = await alertsContext(
      (request) => {
        if (new URL(request.url).searchParams.has('search')) searches.push(request.url);
        return undefined;
      },
      undefined,
      growing(2),
    );
    await sawArrivals(context);
    await lagFollowed(context);
    expect(context.versions.history.indexLag()).toBe(0);
    // A few rounds, each searching the newest arrival only, found at once.
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.length).toBeLessThanOrEqual(6);
  });

  it('sends nothing when no index was seen behind and nothing arrived', async () => {
    const searches: string[] = [];
    const { context } = await alertsContext((request) => {
      if (new URL(request.url).searchParams.has('search')) searches.push(request.url);
      return undefined;
    });
    await context.listing();
    await lagFollowed(context);
    expect(searches).toEqual([]);
    expect(context.versions.history.indexLag()).toBe(0);
  });
});
