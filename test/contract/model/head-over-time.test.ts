import { describe, expect, it } from 'vitest';
import { headOverTime } from '../../../src/contract/model/head-over-time.ts';
import { alertsContext } from '../versions/alerts-context.ts';
import { divergentReplicas, replicas, shuffledPages, still, stuckReplica } from '../targets/live-targets.ts';

const reads = (maxStalenessMs: number, stop = new AbortController().signal) => ({ maxStalenessMs, stop });

/** The head over time of the alerts' listing served by `source` (its first page read once, as a run's probe). */
async function overTime(source: Parameters<typeof alertsContext>[2], maxStalenessMs: number, edit?: Parameters<typeof alertsContext>[1]) {
  const { context } = await alertsContext(undefined, edit, source);
  const probe = await context.send({});
  return headOverTime(context, probe, reads(maxStalenessMs));
}

describe('the head read at the end of the run: claims over time', () => {
  it('a still listing is one version all run: nothing to say', async () => {
    expect(await overTime(still, 10_000)).toEqual({ still: true });
  });

  it('a replica stuck an alert behind keeps answering apart: past --max-staleness, a finding naming both answers', async () => {
    // The kit's own reads wait out the 300 ms: no timing of the machine's makes the replica catch up.
    const end = await overTime(stuckReplica(), 300);
    expect(end.still).toBe(false);
    expect(end.finding?.message).toMatch(
      /^the same request went back and forth between 2 answers for more than --max-staleness 300 ms while no newer one came: one of 20 records from \S+, with \S+ the other lacks; one of 20 records from \S+/,
    );
    expect(end.finding?.exchanges).toHaveLength(2);
  });

  it('replicas that differ in the middle never agree either: the same finding', async () => {
    expect((await overTime(divergentReplicas, 300)).finding?.message).toMatch(/went back and forth between 2 answers/);
  });

  it('replicas a record apart while alerts arrive move on: no finding, however long --max-staleness', async () => {
    // Alerts arrive every 25 requests here: the end's reads themselves bring new answers within 10 s.
    const end = await overTime(replicas(25), 10_000);
    expect(end).toEqual({ still: false });
  });

  it('the same records in more than two orders is no version of a listing', async () => {
    const end = await overTime(still, 10_000, shuffledPages);
    expect(end.finding?.message).toMatch(/^the same request gave the same 20 records in \d+ orders over \d+ reads/);
    expect(end.finding?.absolute).toBe(true);
  });

  it('no answer to the reads at the end (the target failing them): nothing says the listing stood still', async () => {
    let failing = false;
    const { context } = await alertsContext(() => (failing ? new Response('down', { status: 500 }) : undefined), undefined, still);
    const probe = await context.send({});
    failing = true;
    expect(await headOverTime(context, probe, reads(10_000))).toEqual({ still: false });
  });

  it('once the run reached its deadline, answers apart are no finding', async () => {
    const { context } = await alertsContext(undefined, undefined, stuckReplica());
    const probe = await context.send({});
    const stop = new AbortController();
    stop.abort();
    expect((await headOverTime(context, probe, reads(300, stop.signal))).finding).toBeUndefined();
  });
});
