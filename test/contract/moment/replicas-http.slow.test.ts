// Issue 38: two replicas behind a balancer that sends each request to the next one, the second an alert behind,
// an alert arriving every 300 ms of real time, over real HTTP: the kit must judge it as one server whose data grows.
// Real time is what makes the data move under the kit's requests, so these runs take seconds: the slow suite.
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, spec } from '../../helpers.ts';
import { liveTarget, replicas } from '../targets/live-targets.ts';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** Replicas in turn, request by request (as a round-robin balancer's), a new alert every 300 ms. */
async function target(): Promise<string> {
  const started = performance.now();
  const fetch = liveTarget(replicas(1), { clock: () => 1 + Math.floor((performance.now() - started) / 300) });
  return new Promise((resolve) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server;
    servers.push(server);
  });
}

// In process, the same replicas are tried for 10 seeds (live-data.slow.test.ts); over HTTP, each run takes about 17 s.
describe('replicas in turn over HTTP, one an alert behind, an alert every 300 ms', { timeout: 300_000 }, () => {
  it.each([1, 2, 3])('seed %i: conformant, every check evaluated', async (seed) => {
    const report = await runContract({ target: await target(), apiKey: KEY, document: spec.document, seed });
    expect(
      report.outcomes
        .filter((o) => o.status === 'failed' || o.skipCause === 'no-evidence')
        .map((o) => `${o.operationId} ${o.check}: ${o.skipReason ?? o.failures[0]?.message}`),
    ).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });
});
