// A correct server with one worker (a database with one connection, no search index): requests wait in line,
// a search costs 150 ms, a page 3 ms, and a request whose client gave up still runs to its end. With --timeout
// 600, a group of searches sent together outlives the timeout at the back of the line: the kit must not call
// that a finding, and must leave the server idle, not buried under abandoned requests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../../src/contract/types.ts';
import { defaultApp, KEY } from '../../helpers.ts';
import { closeAll, listen, runContractCli, toRequest, writeResponse } from '../targets/hostile-servers.ts';

const dir = mkdtempSync(join(tmpdir(), 'tempmon-one-worker-'));
afterAll(async () => {
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
});

/** The default data behind one worker; `waiting()` says how many requests are in line or running. */
function oneWorker(searchMs: number, pageMs: number) {
  const app = defaultApp();
  let line: Promise<void> = Promise.resolve();
  let waiting = 0;
  const handler = (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => {
    waiting += 1;
    const cost = /[?&]search=[^&]/.test(request.url ?? '') ? searchMs : pageMs;
    const turn = line.then(async () => {
      await new Promise((resolve) => setTimeout(resolve, cost));
      const answer = await app.fetch(toRequest(request));
      waiting -= 1;
      if (!response.destroyed) await writeResponse(response, answer).catch(() => undefined);
    });
    line = turn.catch(() => undefined);
    return turn;
  };
  return { handler, waiting: () => waiting };
}

describe('the built CLI against a server with one worker', () => {
  it('is conformant: a request that timed out behind others is judged alone, and the server is left idle', async () => {
    const server = oneWorker(150, 3);
    const target = await listen(server.handler);
    const json = join(dir, 'report.json');
    const result = await runContractCli(['--target', target.url, '--seed', '3', '--examples', '10', '--timeout', '600', '--json', json], {
      env: { TEMPMON_API_KEY: KEY },
      killAfterMs: 280_000,
    });
    const report = JSON.parse(readFileSync(json, 'utf8')) as ContractReport;
    expect(result.stdout.trimEnd().split('\n').at(-1), result.stdout.slice(-3000)).toBe('conformant');
    const timing = report.timing!;
    const timedOut = timing.kinds.reduce((n, k) => n + k.failed, 0);
    // Whatever timed out did so with others in flight, and answered alone: none is an error.
    const again = timing.sentAgainAlone;
    expect(again.failedAlone).toBe(0);
    expect(again.answered + again.notSent).toBeLessThanOrEqual(timedOut);
    expect(report.outcomes.flatMap((o) => o.failures).filter((f) => f.severity === 'error')).toEqual([]);
    // Latency grew with what was in flight: the limit came down from where it climbed.
    expect(timing.limit.changes.some((c) => c.to < c.from)).toBe(true);
    // Nothing the kit gave up on is still running once it ended (the line empties in at most a search's time).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.waiting()).toBe(0);
    console.log(
      `one worker: ${report.summary.requests} requests in ${result.seconds.toFixed(1)} s; limit ${timing.limit.lowest}-${timing.limit.highest}; ${timedOut} timed out, ${again.answered} answered alone, ${again.notSent} not sent again`,
    );
  }, 300_000);
});
