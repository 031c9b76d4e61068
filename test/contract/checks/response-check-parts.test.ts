// Response checks claim what some answer showed: the records' schema only where a record came, a documented
// header's schema only where the header was sent.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, runInProcess, spec } from '../../helpers.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 30, sensors: 12 } } });
const run = (check: string, fetch: (request: Request) => Response | Promise<Response>) => runInProcess(fetch, { checks: [check], seed: 1 });
const seen = (report: Awaited<ReturnType<typeof run>>) => report.outcomes.map((o) => [o.operationId, o.status, o.notObserved]);

/** The mock's answers with `change` made to each. */
const changed = (change: (response: Response, headers: Headers) => Promise<BodyInit | null>) => async (request: Request) => {
  const response = await app.fetch(request);
  const headers = new Headers(response.headers);
  const body = await change(response, headers);
  return new Response(body, { status: response.status, headers });
};

describe('response checks say which parts of their claim no answer showed', () => {
  it('response_schema_conformance: sees records on the mock', async () => {
    expect(seen(await run('response_schema_conformance', (request) => app.fetch(request)))).toEqual(
      LISTINGS.map((op) => [op.operationId, 'passed', undefined]),
    );
  });

  it('response_schema_conformance: the records not observable when every listing answer is empty', async () => {
    const empty = changed(async (response) => (response.status === 200 ? '[]' : response.text()));
    const unseen = ["the records' schema: no record to inspect in any 200 JSON array"];
    expect(seen(await run('response_schema_conformance', empty))).toEqual(LISTINGS.map((op) => [op.operationId, 'passed', unseen]));
  });

  it('response_headers_conformance: sees both headers on the mock, and Link not observable when never sent', async () => {
    expect(seen(await run('response_headers_conformance', (request) => app.fetch(request)))).toEqual(
      LISTINGS.map((op) => [op.operationId, 'passed', undefined]),
    );
    const noLink = changed(async (response, headers) => {
      headers.delete('link');
      return response.body;
    });
    const unseen = ["link's schema: no 200 answer sent it"];
    expect(seen(await run('response_headers_conformance', noLink))).toEqual(LISTINGS.map((op) => [op.operationId, 'passed', unseen]));
  });
});
