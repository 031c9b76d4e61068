import { describe, expect, it } from 'vitest';
import { lagFollowed } from '../../../src/contract/explore/lag-followed.ts';
import { growing } from '../targets/live-targets.ts';
import { alertsContext } from '../versions/alerts-context.ts';

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

  it('sends nothing when no index was seen behind', async () => {
    const searches: string[] = [];
    const { context } = await alertsContext(
      (request) => {
        if (new URL(request.url).searchParams.has('search')) searches.push(request.url);
        return undefined;
      },
      undefined,
      growing(2),
    );
    await context.listing();
    await lagFollowed(context);
    expect(searches).toEqual([]);
    expect(context.versions.history.indexLag()).toBe(0);
  });
});
