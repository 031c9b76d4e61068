// pagination_consistency claims the slices and page 2 without pageSize only where the listing let it read them.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { everyCollection, LISTINGS, runInProcess, spec } from '../../helpers.ts';

const run = (counts: Record<string, number>) => {
  const app = createApp({ spec, dataset: { seed: 4, counts } });
  return runInProcess((request) => app.fetch(request), { checks: ['pagination_consistency'], seed: 1 });
};

describe('pagination_consistency says what the listing let it see', () => {
  it('reports the slices and page 2 without pageSize not observable on a listing of 3 records, and sees them on one of 25', async () => {
    const report = await run({ ...everyCollection(25), alerts: 3 });
    const unseenOnThree = [
      'page k of size n as records (k-1)n..kn-1, for page 2 of size 3, page 3 of size 5, page 2 of size 7: the listing has 3 records, none that far',
      'page 2 without pageSize: the listing has 3 records, all on page 1',
    ];
    expect(report.outcomes.map((o) => [o.operationId, o.status, o.failures.length, o.notObserved])).toEqual(
      LISTINGS.map((op) => [op.operationId, 'passed', 0, op.collection.key === 'alerts' ? unseenOnThree : undefined]),
    );
    expect(report.verdict).toBe('conformant');
  });
});
