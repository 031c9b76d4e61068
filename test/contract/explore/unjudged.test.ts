// An exploration whose generated requests were partly left unjudged (no answer to judge) says so: its verdict
// covers the requests it judged, never the others.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, runInProcess, spec } from '../../helpers.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 30, sensors: 12 } } });
/** The mock, but a 503 to every request of page size 99 (the covering set holds some). */
const busyAt99 = async (request: Request) =>
  new URL(request.url).searchParams.get('pageSize') === '99'
    ? new Response('busy', { status: 503, headers: { 'content-type': 'text/plain' } })
    : app.fetch(request);

describe('explorations say how many generated requests they could not judge', () => {
  it.each(['explore_pages', 'explore_search', 'explore_metadata'])('%s', async (check) => {
    const report = await runInProcess(busyAt99, { checks: [check], seed: 1, examples: 5 });
    const unseen = [expect.stringMatching(/^\d+ of \d+ generated requests got no answer to judge: every request got 503 text\/plain$/)];
    expect(report.outcomes.map((o) => [o.operationId, o.status, o.failures.length, o.notObserved])).toEqual(
      LISTINGS.map((op) => [op.operationId, 'passed', 0, unseen]),
    );
    const mock = await runInProcess((request) => app.fetch(request), { checks: [check], seed: 1, examples: 5 });
    expect(mock.outcomes.map((o) => o.notObserved)).toEqual(LISTINGS.map(() => undefined));
  });
});
