import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../cli/cli-helpers.ts';
import { KEY } from '../helpers.ts';

/** The kit's own run against its mock in live mode: the fastest rate a dashboard demo would use. */
const LIVE = ['--live', '--live-rate', '4/s'];
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A round-robin in front of `targets`: each request goes to the next one, as a load balancer's would. */
async function roundRobin(targets: readonly string[]): Promise<{ url: string; counts: number[] }> {
  const counts = targets.map(() => 0);
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const k = next++ % targets.length;
    counts[k]! += 1;
    const target = new URL(incoming.url ?? '/', targets[k]);
    const upstream = forward(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counts };
}

/** The newest alert's id at `url` now. */
const newestAlert = async (url: string) =>
  ((await (await fetch(`${url}/alert?pageSize=1`, { headers: { 'x-api-key': KEY } })).json()) as { id: string }[])[0]!.id;

/**
 * `tempmon contract` against `url` with `seed`: its exit code, its output, its last line (the verdict), and
 * whether alerts arrived while it ran (at 4/s, one every 250 ms; a run takes seconds).
 */
async function contract(url: string, seed: number) {
  const before = await newestAlert(url);
  const result = await runCli(['contract', '--target', url, '--api-key', KEY, '--seed', String(seed)]);
  return {
    status: result.status,
    out: `${result.stdout}${result.stderr}`,
    verdict: result.stdout.trim().split('\n').at(-1),
    moved: (await newestAlert(url)) !== before,
  };
}

// Each run is a few seconds of CPU: twenty of them, with servers, take a few minutes on a loaded machine.
describe('tempmon contract against tempmon serve --live --live-rate 4/s, over HTTP', { timeout: 600_000 }, () => {
  it('is conformant for 10 seeds (the data moving while the kit reads it)', async () => {
    for (const seed of SEEDS) {
      const mock = await startServe([...LIVE, '--seed', String(seed), '--api-key', KEY, '--quiet']);
      const run = await contract(mock.url, seed);
      expect(run.verdict, `seed ${seed}: ${run.out}`).toBe('conformant');
      expect(run.status, `seed ${seed}: ${run.out}`).toBe(0);
      expect(run.moved, `seed ${seed}: no alert arrived during the run`).toBe(true);
      await mock.stop();
    }
  });

  it('is conformant for 10 seeds against two replicas behind a round-robin, each serving about half', async () => {
    for (const seed of SEEDS) {
      const replicas = await Promise.all([0, 1].map(() => startServe([...LIVE, '--seed', String(seed), '--api-key', KEY, '--quiet'])));
      const balancer = await roundRobin(replicas.map((r) => r.url));
      const run = await contract(balancer.url, seed);
      expect(run.verdict, `seed ${seed}: ${run.out}`).toBe('conformant');
      expect(run.status, `seed ${seed}: ${run.out}`).toBe(0);
      expect(run.moved, `seed ${seed}: no alert arrived during the run`).toBe(true);
      const [a, b] = balancer.counts as [number, number];
      expect(Math.abs(a - b), `seed ${seed}: ${a} and ${b} requests`).toBeLessThanOrEqual(1);
      expect(a).toBeGreaterThan(50);
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });
});
