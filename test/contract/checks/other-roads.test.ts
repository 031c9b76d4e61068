import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, LISTINGS, runInProcess, spec } from '../../helpers.ts';
import { servedMock } from '../targets/connection-servers.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 30, sensors: 12 } } });
const roads = (fetch: (request: Request) => Response | Promise<Response>) =>
  runInProcess(fetch, { checks: ['other_roads_to_data'], seed: 1 });

describe('other_roads_to_data and OPTIONS', () => {
  it('passes a CORS layer: a preflight gets 204 and its headers, a bare OPTIONS an allow-list', async () => {
    const seen: string[] = [];
    const cors = (request: Request) => {
      if (request.method !== 'OPTIONS') return app.fetch(request);
      const preflight = request.headers.has('access-control-request-method');
      seen.push(preflight ? 'preflight' : 'bare');
      const allow = { allow: 'GET, HEAD, OPTIONS', 'access-control-allow-origin': '*', 'access-control-allow-headers': 'x-api-key' };
      return preflight
        ? new Response(null, { status: 204, headers: allow })
        : new Response(JSON.stringify(['GET', 'HEAD']), { status: 200, headers: { ...allow, 'content-type': 'application/json' } });
    };
    const report = await roads(cors);
    expect(report.outcomes.map((o) => [o.operationId, o.status])).toEqual(LISTINGS.map((op) => [op.operationId, 'passed']));
    expect(seen).toEqual(LISTINGS.flatMap(() => ['bare', 'preflight']));
  });

  it('fails a preflight answered with records, as an error naming the road', async () => {
    const leaky = (request: Request) =>
      request.method === 'OPTIONS' && request.headers.has('origin')
        ? app.fetch(new Request(request.url, { headers: { 'x-api-key': 'tempmon-dev-key' } }))
        : app.fetch(request);
    const report = await roads(leaky);
    const findings = report.outcomes.flatMap((o) => o.failures);
    expect(findings.map((f) => [f.operationId, f.severity, f.message])).toEqual(
      LISTINGS.map((op) => [op.operationId, 'error', `OPTIONS ${op.path} as a CORS preflight, without any key, gives the listing's data`]),
    );
  });

  it('sends the dot segments as written over the network, and reports them not observable in process', async () => {
    const { url, close } = await servedMock();
    try {
      const network = await runContract({ target: url, apiKey: KEY, document: spec.document, checks: ['other_roads_to_data'], seed: 1 });
      expect(network.outcomes.map((o) => [o.status, o.notObserved])).toEqual(LISTINGS.map(() => ['passed', undefined]));
    } finally {
      await close();
    }
    const inProcess = await roads((request) => app.fetch(request));
    expect(inProcess.outcomes.map((o) => [o.operationId, o.status, o.notObserved])).toEqual(
      LISTINGS.map(({ operationId, path }) => [
        operationId,
        'passed',
        [`the dot segments (/.${path}, /x/..${path}): an in-process target gets URLs parsed, not as written`],
      ]),
    );
    expect(inProcess.verdict).toBe('conformant');
  });
});
