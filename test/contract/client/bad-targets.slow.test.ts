import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { ContractSetupError } from '../../../src/contract/types.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { closedTarget } from '../../closed-target.ts';
import { KEY, spec } from '../../helpers.ts';

const app = createApp({ spec, dataset: { seed: 3, counts: { alerts: 30, sensors: 10 } } });
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.closeAllConnections?.() ?? s.close();
});

/** Serves `fetch` over real HTTP on a free loopback port. */
function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<string> {
  return new Promise((resolve) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server;
    servers.push(server);
  });
}

const contract = (target: string, extra: Partial<Parameters<typeof runContract>[0]> = {}) =>
  runContract({ target, apiKey: KEY, document: spec.document, timeoutMs: 500, ...extra });
const failuresOf = (report: Awaited<ReturnType<typeof contract>>, check: string) =>
  report.outcomes.filter((o) => o.check === check).flatMap((o) => o.failures);

describe('bad targets give clear failures, never a crash or a hang', () => {
  it('a refused connection cannot run (exit 2)', async () => {
    const down = closedTarget();
    await expect(contract(down)).rejects.toThrow(ContractSetupError);
    await expect(contract(down)).rejects.toThrow(/cannot reach http:\/\/127\.0\.0\.1:\d+\/alert: connection refused/);
  });

  it('a target that never answers cannot run, within the timeout', async () => {
    const silent = createServer(() => undefined).listen(0, '127.0.0.1');
    servers.push(silent);
    await new Promise((r) => silent.once('listening', r));
    const started = Date.now();
    await expect(contract(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, { timeoutMs: 300 })).rejects.toThrow(
      /no complete response within 300 ms/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a router that resolves /x/../alert after its auth check matched the raw path: other_roads_to_data sends it as written and fails', async () => {
    // The auth check sees the raw path; the router then resolves the dot segments and serves the listing.
    const server = createServer(async (req, res) => {
      const raw = req.url ?? '/';
      const headers = new Headers(
        Object.entries(req.headers).flatMap(([n, v]) => (typeof v === 'string' ? [[n, v] as [string, string]] : [])),
      );
      if (raw.includes('/../')) headers.set('x-api-key', KEY);
      const answer = await app.fetch(new Request(`http://target${raw}`, { method: req.method === 'HEAD' ? 'HEAD' : 'GET', headers }));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    }).listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    const report = await contract(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { checks: ['other_roads_to_data'] });
    const found = failuresOf(report, 'other_roads_to_data');
    expect(found.map((f) => f.message)).toContain("/x/../alert (a dot-dot segment), without any key, gives the listing's data");
    expect(found.find((f) => f.message.startsWith('/x/../alert'))!.exchange!.request.url).toMatch(/\/x\/\.\.\/alert$/);
    expect(report.verdict).toBe('not conformant');
  });

  // Each page-2 request waits out its 1 s timeout, besides a whole run's CPU: given room on a loaded machine.
  it('a target that hangs mid-body on one page is cut off and reported', async () => {
    const target = await listen(async (request) => {
      if (new URL(request.url).searchParams.get('page') !== '2') return app.fetch(request);
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('[{"id":')) });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    });
    // Few generated requests: each one for page 2 waits out the timeout (1 s: a loaded machine must not time out the others).
    const report = await contract(target, { timeoutMs: 1_000, examples: 5 });
    const received = failuresOf(report, 'response_received');
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]!.message).toContain('no complete response within 1000 ms');
    expect(report.conformant).toBe(false);
  }, 120_000);

  it('a non-JSON body fails the schema and content-type checks', async () => {
    const target = await listen(() => new Response('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } }));
    const report = await contract(target);
    expect(failuresOf(report, 'response_schema_conformance')[0]).toMatchObject({ severity: 'error', message: '200 body is not JSON' });
    expect(failuresOf(report, 'content_type_conformance')[0]).toMatchObject({ severity: 'error', actual: 'text/html' });
  });

  it('an enormous body is read only up to the cap', async () => {
    const target = await listen(async (request) => {
      if (new URL(request.url).searchParams.get('pageSize') !== '100') return app.fetch(request);
      let sent = 0;
      const chunk = new TextEncoder().encode(`${' '.repeat(65_535)}\n`);
      const body = new ReadableStream({
        pull(c) {
          sent += 1;
          if (sent > 2_000)
            c.close(); // 128 MB at most, should the cap fail
          else c.enqueue(chunk);
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    });
    const report = await contract(target, { maxBodyBytes: 1_000_000, timeoutMs: 5_000 });
    expect(failuresOf(report, 'response_received')[0]!.message).toContain('body larger than 1000000 bytes');
  });

  it('a redirect is reported, never followed, and the key never reaches the other origin', async () => {
    const seen: (string | undefined)[] = [];
    const other = await listen((request) => {
      seen.push(request.headers.get('x-api-key') ?? undefined);
      return app.fetch(request);
    });
    const redirecting = await listen((request) => Response.redirect(`${other}${new URL(request.url).pathname}`, 302));
    const report = await contract(redirecting);
    expect(seen).toEqual([]);
    const status = failuresOf(report, 'status_code_conformance')[0]!;
    expect(status.severity).toBe('error');
    expect(status.actual).toMatch(/^302 \(redirect to http:\/\/127\.0\.0\.1:\d+\/alert, not followed\)$/);
  });
});
