// Issue 38: search served from an index refreshed apart from the data (as Elasticsearch and most search services
// are), over real HTTP in real time: a record that arrived a moment ago is not found until the next refresh.
// Real time is what such an index lags by, so these runs take seconds and belong to the slow suite.
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, spec } from '../../helpers.ts';
import { growing, liveTarget } from '../targets/live-targets.ts';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/**
 * A new alert every 250 ms of real time (4 a second) from moment `from`; searches find what the alerts held at
 * `indexed` of that moment.
 */
async function target(indexed: (t: number) => number, from = 1): Promise<string> {
  const started = performance.now();
  const fetch = liveTarget(growing(1), { clock: () => from + Math.floor((performance.now() - started) / 250), indexed });
  return new Promise((resolve) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server;
    servers.push(server);
  });
}

const run = (url: string, checks?: string[]) =>
  runContract({ target: url, apiKey: KEY, document: spec.document, seed: 21, examples: 40, strict: true, ...(checks ? { checks } : {}) });

describe('search that catches up with records that arrived', () => {
  it('an index refreshed every second, an alert arriving every 250 ms: conformant under --strict, every check evaluated', async () => {
    // Refreshed at every fourth moment (each second): what arrived since the last refresh is not found yet.
    const report = await run(await target((t) => t - (t % 4)));
    expect(
      report.outcomes
        .filter((o) => o.status === 'failed' || o.status === 'warned' || o.skipCause === 'no-evidence')
        .map((o) => `${o.operationId} ${o.check}: ${o.skipReason ?? o.failures[0]?.message}`),
    ).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('an index that never takes in new alerts is NOT conformant under --strict, by explore_search', async () => {
    // 20 alerts the index never took in are there from the first read: however fast the run, its searches miss
    // records that were there before it started, not only some that arrived during it.
    const report = await run(await target(() => 1, 21), ['explore_search']);
    expect(report.verdict).toBe('not conformant');
    expect(report.outcomes.find((o) => o.check === 'explore_search' && o.operationId === 'listAlerts')?.status).toBe('failed');
  });
});
