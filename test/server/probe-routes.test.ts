// Over real HTTP through `tempmon serve`: /healthz answers at once, /readyz says 503 with progress while
// a large collection's search index is built in the background, then 200; no key is needed for either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.ts';
import { listProbes } from '../../src/spec/probe-operations.ts';
import { everyCollection, KEY, spec, validator } from '../helpers.ts';

const probes = listProbes(spec.document);
const pathOf = (kind: string) => probes.find((probe) => probe.kind === kind)!.path;

describe('health probes', () => {
  it('are read from the spec: one liveness and one readiness probe, which are no listings', () => {
    expect(probes.map((p) => [p.kind, p.path])).toEqual([
      ['liveness', '/healthz'],
      ['readiness', '/readyz'],
    ]);
  });

  describe('with a collection over the background-index threshold', () => {
    let server: Awaited<ReturnType<typeof serveCommand>>;
    beforeAll(async () => {
      server = await serveCommand(['--port', '0', '--api-key', KEY, '--alerts', '60000', '--sensors', '10', '--quiet'], () => undefined);
    });
    afterAll(() => server?.close());

    it('says 503 with progress until search is ready, then 200; /healthz is 200 all along; no key needed', async () => {
      const url = server!.url;
      const first = await fetch(`${url}${pathOf('readiness')}`);
      expect(first.status).toBe(503);
      expect(first.headers.get('content-type')).toBe('application/problem+json');
      expect(first.headers.get('retry-after')).toBe('1');
      expect(first.headers.get('cache-control')).toBe('no-store');
      const waiting = (await first.json()) as { progress: Record<string, number>; detail: string };
      expect(validator.validate('NotReady', waiting)).toEqual([]);
      expect(waiting.progress.alerts).toBeLessThan(1);
      expect(waiting.progress.sensors).toBe(1);
      expect(waiting.detail).toMatch(/alerts \d+%/);
      // What readiness is about: a search is refused until the index is built.
      expect((await fetch(`${url}/alert?search=cold`, { headers: { 'x-api-key': KEY } })).status).toBe(503);

      const shares: number[] = [waiting.progress.alerts!];
      let ready: Response | undefined;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
        const health = await fetch(`${url}${pathOf('liveness')}`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok' });
        const response = await fetch(`${url}${pathOf('readiness')}`);
        if (response.status === 200) {
          ready = response;
          break;
        }
        shares.push(((await response.json()) as { progress: Record<string, number> }).progress.alerts!);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(ready, 'ready within 60 s').toBeDefined();
      const body = await ready!.json();
      expect(validator.validate('Readiness', body)).toEqual([]);
      expect(body).toEqual({ status: 'ready', progress: everyCollection(1) });
      // Progress never goes back.
      expect(shares).toEqual([...shares].sort((a, b) => a - b));
      expect((await fetch(`${url}/alert?search=cold`, { headers: { 'x-api-key': KEY } })).status).toBe(200);
    });

    it('refuses other methods with 405 and Allow', async () => {
      const response = await fetch(`${server!.url}${pathOf('liveness')}`, { method: 'POST' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  it('reports ready at once for a small dataset', async () => {
    const server = await serveCommand(['--port', '0', '--alerts', '20', '--sensors', '5', '--quiet'], () => undefined);
    try {
      const response = await fetch(`${server!.url}${pathOf('readiness')}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready', progress: everyCollection(1) });
    } finally {
      await server!.close();
    }
  });
});
