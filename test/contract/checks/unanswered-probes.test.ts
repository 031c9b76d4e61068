// A check whose fixed probes were partly left unanswered (a 503, no response) says which it could not judge:
// its verdict covers the probes answered, never those it did not see.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, runInProcess, spec } from '../../helpers.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 30, sensors: 12 } } });

type Pick = (request: Request, query: URLSearchParams) => boolean;

/** The mock, but a 503 to the requests `unanswered` picks (or, `dropped`, no response at all). */
const unansweredWhen = (unanswered: Pick, dropped: boolean) => async (request: Request) => {
  if (!unanswered(request, new URL(request.url).searchParams)) return app.fetch(request);
  if (dropped) throw new Error('socket hang up');
  return new Response('busy', { status: 503, headers: { 'content-type': 'text/plain' } });
};

const outcomesOf = async (check: string, unanswered: Pick, dropped = false) => {
  const report = await runInProcess(unansweredWhen(unanswered, dropped), { checks: [check], seed: 1 });
  return report.outcomes.map((o) => [o.operationId, o.status, o.failures.length, o.notObserved]);
};

/** Every listing passed, nothing failed, with `notObserved`. */
const each = (notObserved: unknown) => LISTINGS.map((op) => [op.operationId, 'passed', 0, notObserved]);

describe('fixed probes left unanswered are reported, never passed', () => {
  it('ignored_auth: a wrong key that got no answer', async () => {
    expect(await outcomesOf('ignored_auth', (request) => request.headers.get('x-api-key') === '')).toEqual(
      each([expect.stringMatching(/^1 of \d+ wrong keys got no answer to judge \(an empty key\): the request got 503 text\/plain$/)]),
    );
  });

  it('other_roads_to_data: a road that got no response (a 5xx gives no data: that is seen)', async () => {
    // In process, the dot segments go unsent too (other-roads.test.ts).
    const unsent = (path: string) => `the dot segments (/.${path}, /x/..${path}): an in-process target gets URLs parsed, not as written`;
    expect(await outcomesOf('other_roads_to_data', (request) => request.method === 'HEAD', true)).toEqual(
      LISTINGS.map(({ operationId, path }) => [
        operationId,
        'passed',
        0,
        [`1 of 9 other roads got no answer to judge (HEAD ${path}): the request got socket hang up`, unsent(path)],
      ]),
    );
    expect(await outcomesOf('other_roads_to_data', (request) => request.method === 'HEAD')).toEqual(
      LISTINGS.map(({ operationId, path }) => [operationId, 'passed', 0, [unsent(path)]]),
    );
  });

  it('negative_data_rejection: an invalid value that got no answer', async () => {
    expect(await outcomesOf('negative_data_rejection', (_, query) => query.get('page') === '-1')).toEqual(
      each([expect.stringMatching(/^1 of \d+ invalid values got no answer to judge \(page=-1\): the request got 503 text\/plain$/)]),
    );
  });

  it('negative_data_rejection: an ambiguous form that got no answer', async () => {
    expect(await outcomesOf('negative_data_rejection', (_, query) => query.get('page') === '010')).toEqual(
      each([expect.stringMatching(/^1 of \d+ ambiguous forms got no answer to judge \(page="010"\): the request got 503 text\/plain$/)]),
    );
  });

  it('page_size_conformance: a page size that got no answer', async () => {
    expect(await outcomesOf('page_size_conformance', (_, query) => query.get('pageSize') === '7')).toEqual(
      each(['1 of 4 page sizes got no answer to judge (pageSize=7): the request got 503 text/plain']),
    );
  });

  it('search_special_terms: a hazard term that got no answer', async () => {
    expect(await outcomesOf('search_special_terms', (_, query) => (query.get('search') ?? '').length >= 1000)).toEqual(
      each([expect.stringMatching(/^1 of \d+ hazard terms got no answer to judge \("x{20}…"\): the request got 503 text\/plain$/)]),
    );
  });
});
