import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, runInProcess, spec } from '../../helpers.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 40, sensors: 12 } } });
const run = (fetch: (request: Request) => Response | Promise<Response>) => runInProcess(fetch, { checks: ['total_count_header'], seed: 1 });

describe('total_count_header claims the count after search only where it saw one', () => {
  it('judges it on the mock: no part unseen', async () => {
    const report = await run((request) => app.fetch(request));
    expect(report.outcomes.map((o) => [o.status, o.notObserved])).toEqual(LISTINGS.map(() => ['passed', undefined]));
  });

  it('reports it not observable when a search answers without X-Total-Count', async () => {
    const noCountOnSearch = async (request: Request) => {
      const response = await app.fetch(request);
      if (!new URL(request.url).searchParams.get('search')) return response;
      const headers = new Headers(response.headers);
      headers.delete('x-total-count');
      return new Response(response.body, { status: response.status, headers });
    };
    const report = await run(noCountOnSearch);
    const unseen = ['the count after a search: a search for a term nothing holds got 200 without X-Total-Count'];
    expect(report.outcomes.map((o) => [o.status, o.notObserved])).toEqual(LISTINGS.map(() => ['passed', unseen]));
    expect(report.verdict).toBe('conformant');
  });
});
