import { describe, expect, it } from 'vitest';
import { judgeAgainIfChanged, type Rejudging } from '../../../src/contract/moment/judge-again.ts';
import type { CheckOutcome } from '../../../src/contract/types.ts';
import { replicas } from '../targets/live-targets.ts';
import { alertsContext } from './alerts-context.ts';

describe('judging again when the first page changed during the run', () => {
  /**
   * Against two replicas in turn a record apart (alerts arriving), a check that could not judge at first
   * (skipped for want of evidence) is run again on the newest copies of answers; its re-run reports one finding
   * whose judging by the versions rule says `stands`.
   */
  async function rerunWith(stands: boolean | { unknown: string }) {
    const { context, client, contextWith } = await alertsContext(undefined, undefined, replicas(25));
    const probe = await context.send({});
    // The run's own requests: alerts arrive every 25, so the head the probe showed is left behind.
    for (let n = 0; n < 60; n += 1) await context.send({});
    let reruns = 0;
    const rejudging: Rejudging = {
      context,
      client,
      onNewest: false,
      intervalMs: 0,
      stop: new AbortController().signal,
      seed: 1,
      judgesEachAnswer: () => false,
      contextWith: (through) => contextWith(through, { versions: context.versions }),
      async runAgain(check) {
        reruns += 1;
        const finding = { severity: 'warning' as const, message: 'X-Total-Count differs', rejudge: async () => stands };
        return {
          check,
          operationId: 'listAlerts',
          description: '',
          status: 'warned',
          failures: [{ ...finding, check, operationId: 'listAlerts' }],
        };
      },
    };
    const skipped: CheckOutcome = {
      check: 'total_count_header',
      operationId: 'listAlerts',
      description: '',
      status: 'skipped',
      skipCause: 'no-evidence',
      skipReason: 'the listing could not be read to its end',
      failures: [],
    };
    const [outcome] = await judgeAgainIfChanged(rejudging, [skipped], probe);
    return { outcome: outcome!, reruns };
  }

  it("replicas apart: a check's re-run on the newest copies has its findings judged by the versions rule, as the first run's are", async () => {
    // Explained by versions of the listing: no finding (it stood, unjudged, before).
    const explained = await rerunWith(false);
    expect(explained.reruns).toBe(1);
    expect(explained.outcome.failures).toEqual([]);
    // Unexplained: it stands, naming the versions.
    const unexplained = await rerunWith(true);
    expect(unexplained.outcome.failures.map((f) => f.message)).toEqual(['X-Total-Count differs']);
  });
});
