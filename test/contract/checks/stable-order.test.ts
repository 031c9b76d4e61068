// stable_order claims a request is answered for itself on one connection only where it could see that: over the
// network, on a connection of its own, with answers that tell the requests apart.
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, LISTINGS, runInProcess, spec } from '../../helpers.ts';
import { searchIgnored, servedMock } from '../targets/connection-servers.ts';

const closing: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closing.map((close) => close())));

const overNetwork = async (server: Promise<{ url: string; close: () => Promise<void> }>) => {
  const { url, close } = await server;
  closing.push(close);
  return runContract({ target: url, apiKey: KEY, document: spec.document, checks: ['stable_order'], seed: 1 });
};
const seen = (report: Awaited<ReturnType<typeof runInProcess>>) => report.outcomes.map((o) => [o.operationId, o.status, o.notObserved]);

describe('stable_order says what it saw on one connection', () => {
  it('sees it over the network: no part unseen', async () => {
    expect(seen(await overNetwork(servedMock()))).toEqual(LISTINGS.map((op) => [op.operationId, 'passed', undefined]));
  });

  it('reports it not observable where the kit cannot choose its connection (an in-process target)', async () => {
    const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 30, sensors: 12 } } });
    const report = await runInProcess((request) => app.fetch(request), { checks: ['stable_order'], seed: 1 });
    const unseen = [
      'a request answered for itself on one connection: the kit cannot choose its connection here (an in-process target, a proxy)',
    ];
    expect(seen(report)).toEqual(LISTINGS.map((op) => [op.operationId, 'passed', unseen]));
    expect(report.verdict).toBe('conformant');
  });

  it('reports the probe after a search not observable when the search changes nothing', async () => {
    const unseen = [
      'a request answered for itself on one connection after a search: both got the same records, so one answered for the other would not show',
    ];
    expect(seen(await overNetwork(searchIgnored()))).toEqual(LISTINGS.map((op) => [op.operationId, 'passed', unseen]));
  });
});
