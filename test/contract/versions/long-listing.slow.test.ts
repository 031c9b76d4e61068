// A verdict on listings longer than --max-pages, as a CI run would get it: the default run (every check)
// against each broken variant of a lazily made listing of 1,000,037 alerts, and the built CLI against
// `tempmon serve --alerts 1000000 --sensors 1000000` once its /readyz is 200, with its peak RSS (and its wall time, printed).
import { describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { startServe } from '../../cli/cli-helpers.ts';
import { KEY, spec } from '../../helpers.ts';
import { runContractCli } from '../targets/hostile-servers.ts';
import { LONG_LISTING_VARIANTS, longListing } from '../targets/long-listing.ts';

const run = (fetch: ReturnType<typeof longListing>, strict = false) =>
  runContract({ target: 'http://long.test', apiKey: KEY, document: spec.document, fetch, seed: 5, strict });

describe('default runs against broken listings of 1,000,037 records', () => {
  it.each(LONG_LISTING_VARIANTS.map((v) => [v.name, v] as const))(
    '%s',
    async (_, variant) => {
      const target = longListing({ variant });
      const report = await run(target);
      const caught = report.outcomes.find((o) => o.check === variant.caughtBy && o.operationId === 'listAlerts');
      expect(caught?.failures.some((f) => f.severity === variant.severity)).toBe(true);
      expect(report.verdict).toBe(variant.severity === 'error' ? 'not conformant' : 'conformant');
      if (variant.severity === 'warning') expect((await run(target, true)).verdict).toBe('not conformant');
      // The sensors listing, which no variant touches, stays clean: findings are the variant's, not noise.
      expect(report.outcomes.filter((o) => o.operationId === 'listSensors' && o.failures.length > 0).map((o) => o.check)).toEqual([]);
    },
    60_000,
  );
});

describe('the built CLI against tempmon serve with a million alerts and a million sensors', () => {
  it('is conformant within 400 MB, and says how much it read', async () => {
    const server = await startServe(['--alerts', '1000000', '--sensors', '1000000', '--quiet']);
    // Waited on as a CI job would: until /readyz is 200 (both search indexes built).
    for (let i = 0; i < 240 && (await fetch(`${server.url}/readyz`)).status !== 200; i += 1) await new Promise((r) => setTimeout(r, 500));
    const result = await runContractCli(['--target', server.url, '--seed', '1'], {
      env: { TEMPMON_API_KEY: KEY },
      measureRss: true,
      killAfterMs: 120_000,
    });
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^conformant \(listAlerts: 5,000 of 1,000,000 records read in order, \d+ pages beyond up to the end; listSensors: 5,000 of 1,000,000 records read in order, \d+ pages beyond up to the end\)$/,
    );
    expect(result.status).toBe(0);
    // The wall time is a figure (printed below, and in the README), not an assertion: CI shares its cores.
    if (result.peakRssMb !== undefined) expect(result.peakRssMb, result.rssSource).toBeLessThan(400);
    console.log(
      `contract against 1M + 1M: ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMb?.toFixed(0) ?? '?'} MB (${result.rssSource})`,
    );
    await server.stop();
  }, 240_000);
});
