import { describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { ContractSetupError, type Place } from '../../../src/contract/types.ts';
import { comparePlaces } from '../../../src/contract/client/exchange-recorder.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { KEY, spec } from '../../helpers.ts';

const small = createApp({ spec, dataset: { seed: 5, counts: { alerts: 40, sensors: 12 } } });
const other = createApp({ spec, dataset: { seed: 6, counts: { alerts: 41, sensors: 12 } } });
const run = (fetch: (r: Request) => Response | Promise<Response>, extra: Partial<Parameters<typeof runContract>[0]> = {}) =>
  runContract({ target: 'http://target.test', apiKey: KEY, document: spec.document, fetch, seed: 3, examples: 20, ...extra });

describe('verdicts of a run', () => {
  it('--max-duration stops a run: checks not reached are SKIP, and the run is inconclusive, not conformant', async () => {
    const slow = async (request: Request) => {
      await new Promise((r) => setTimeout(r, 40));
      return small.fetch(request);
    };
    const started = Date.now();
    const report = await run(slow, { maxDurationMs: 1_000 });
    // The deadline is the behaviour (the SKIP reasons below show it); the time only bounds a run gone wrong,
    // ten times the deadline, so a loaded machine does not fail it.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.verdict).toBe('inconclusive');
    const stopped = report.outcomes.filter((o) => o.skipReason?.includes('--max-duration of 1 s was reached'));
    expect(stopped.length).toBeGreaterThan(0);
    expect(stopped.every((o) => o.skipCause === 'no-evidence')).toBe(true);
  });

  it('data replaced once during the run is judged again on the new data, not reported as violations', async () => {
    // Another dataset after the listing was read: to the kit, records appear and vanish mid-run, then stand still.
    let requests = 0;
    const changing = (request: Request) => {
      requests += 1;
      return (requests > 60 ? other : small).fetch(request);
    };
    const report = await run(changing, { checks: ['pagination_consistency', 'explore_pages', 'explore_search'] });
    expect(report.outcomes.flatMap((o) => o.failures)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  // Every failure is judged again at one moment, and rechecked: a few seconds of CPU, several on a loaded machine.
  it('the same seed sends the same requests, in the order of the run (as the HAR holds them) whenever each went', async () => {
    const urls = async (seed: number) => {
      const seen: { url: string; place: Place }[] = [];
      await run((request) => small.fetch(request), {
        seed,
        checks: ['explore_pages', 'ignored_auth', 'negative_data_rejection'],
        record: (exchange, place) => seen.push({ url: exchange.request.url, place }),
      });
      return seen.sort((x, y) => comparePlaces(x.place, y.place)).map((s) => s.url);
    };
    const [a, b, c] = [await urls(11), await urls(11), await urls(12)];
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('a target whose listings are all 404 could not run, with a hint about the base URL', async () => {
    const wrongBase = (request: Request) =>
      new URL(request.url).pathname.startsWith('/v1/')
        ? small.fetch(new Request(request.url.replace('/v1', ''), request))
        : new Response('not found', { status: 404 });
    const error = await run(wrongBase).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractSetupError);
    expect((error as ContractSetupError).message).toMatch(/every listing request got 404/);
    expect((error as ContractSetupError).hint).toMatch(/base URL/);
    await expect(run(wrongBase, { target: 'http://target.test/v1', checks: ['not_a_server_error'] })).resolves.toMatchObject({
      verdict: 'conformant',
    });
  });

  it('--checks max_response_time without its flag cannot run', async () => {
    await expect(run((r) => small.fetch(r), { checks: ['max_response_time'] })).rejects.toThrow(/needs --max-response-time/);
  });
});
