// Issue 38: answers that differ by connection, over real HTTP on 127.0.0.1. A connection alone is legitimate (a
// layer-4 balancer pins a connection to one replica); a server answering a request on a connection with an
// earlier request's state (its search, its page) is not.
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, spec } from '../../helpers.ts';
import { replicasPinnedByConnection, searchKeptPerConnection } from '../targets/connection-servers.ts';

const closing: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closing.map((close) => close())));

const run = async (server: Promise<{ url: string; close: () => Promise<void> }>) => {
  const { url, close } = await server;
  closing.push(close);
  return runContract({ target: url, apiKey: KEY, document: spec.document, seed: 5, examples: 20 });
};

describe('answers that differ by connection', () => {
  it('a server applying a connection’s last search to a later request without one is NOT conformant, by stable_order, named as such', async () => {
    const report = await run(searchKeptPerConnection());
    expect(report.verdict).toBe('not conformant');
    const stable = report.outcomes.find((o) => o.check === 'stable_order' && o.operationId === 'listAlerts');
    expect(stable?.status).toBe('failed');
    expect(stable?.failures.some((f) => f.severity === 'error' && /state leaking between requests/.test(f.message))).toBe(true);
    expect(report.reason).toMatch(/^1 check failed \(stable_order\)/);
  });

  it('a balancer pinning each connection to one of two replicas, one an alert behind for 3 s, is conformant', async () => {
    const report = await run(replicasPinnedByConnection(3_000));
    const problems = report.outcomes
      .filter((o) => o.status === 'failed' || o.status === 'warned' || o.skipCause === 'no-evidence')
      .map((o) => `${o.operationId} ${o.check}: ${o.failures[0]?.message ?? o.skipReason}`);
    expect(problems).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });
});
