import { describe, expect, it } from 'vitest';
import { settled } from '../../../src/contract/run/settle-outcomes.ts';
import type { CheckOutcome, Failure } from '../../../src/contract/types.ts';
import { alertsContext } from '../versions/alerts-context.ts';

const WHY = 'it needs records past those read (--max-pages)';

/** An outcome of `check` on the alerts with `failures`. */
const outcome = (failures: Omit<Failure, 'check' | 'operationId'>[], check = 'total_count_header'): CheckOutcome => ({
  check,
  operationId: 'listAlerts',
  description: '',
  status: failures.length > 0 ? 'warned' : 'passed',
  failures: failures.map((f) => ({ ...f, check, operationId: 'listAlerts' })),
});
const untold = { severity: 'warning' as const, message: 'X-Total-Count differs', unplaced: WHY };

/**
 * Settles `outcomes` of the alerts' listing, alerts arriving after the run's first read when `moves`; the check's run
 * again gives `again`. Resolves the outcomes and how many times a check ran again.
 */
async function settle(
  outcomes: CheckOutcome[],
  moves: boolean,
  again: CheckOutcome = outcome([untold]),
  stop = new AbortController().signal,
) {
  const { context, arrive } = await alertsContext();
  const probe = await context.send({});
  if (moves) arrive(3);
  let reruns = 0;
  const settling = {
    context,
    reads: { maxStalenessMs: 10_000, stop },
    seed: 7,
    runAgain: async () => {
      reruns += 1;
      return again;
    },
  };
  return { outcomes: await settled(settling, outcomes, probe), reruns };
}

describe('a listing settled by its versions once its checks are in', () => {
  it('a finding the versions could not tell stands when the head never moved', async () => {
    const { outcomes, reruns } = await settle([outcome([untold])], false);
    expect(outcomes[0]!.failures.map((f) => f.message)).toEqual(['X-Total-Count differs']);
    expect(reruns).toBe(0);
  });

  it('when the listing moved, its check runs again on a fresh read; still untold, it is inconclusive, saying what the versions lacked', async () => {
    const { outcomes, reruns } = await settle([outcome([untold])], true);
    expect(reruns).toBe(1);
    expect(outcomes[0]).toMatchObject({ status: 'skipped', skipCause: 'no-evidence', failures: [] });
    expect(outcomes[0]!.skipReason).toBe(
      `data changed during the run, and the versions of the listing could not tell: ${WHY}; run again, with --seed 7 to replay the same requests`,
    );
  });

  it('once --max-duration is reached, a finding the versions could not tell is inconclusive, not a failure, saying which flag gives the time', async () => {
    const { outcomes, reruns } = await settle([outcome([untold])], true, undefined, AbortSignal.abort());
    expect(reruns).toBe(0);
    expect(outcomes[0]).toMatchObject({ status: 'skipped', skipCause: 'no-evidence', failures: [] });
    expect(outcomes[0]!.skipReason).toBe(
      `data changed during the run, and the versions of the listing could not tell: ${WHY}; the run's --max-duration was reached before a fresh read could: run again with a longer --max-duration, with --seed 7 to replay the same requests`,
    );
  });

  it('run again, a finding the rule explains is dropped, and one it names stands with the versions in its words', async () => {
    const explained = outcome([{ severity: 'warning', message: 'X-Total-Count differs', rejudge: async () => false }]);
    expect((await settle([outcome([untold])], true, explained)).outcomes[0]!.failures).toEqual([]);
    const named = outcome([
      { severity: 'warning', message: 'X-Total-Count differs', rejudge: async () => ({ named: 'no version gives 7' }) },
    ]);
    const { outcomes } = await settle([outcome([untold])], true, named);
    expect(outcomes[0]!.failures.map((f) => f.message)).toEqual(['X-Total-Count differs: no version gives 7']);
  });

  it('a finding that stands beside untold ones fails the check alone, with no run again', async () => {
    const absolute = { severity: 'error' as const, message: 'X-Total-Count ignores the search', absolute: true };
    const { outcomes, reruns } = await settle([outcome([untold, absolute])], true);
    expect(outcomes[0]!.failures.map((f) => f.message)).toEqual(['X-Total-Count ignores the search']);
    expect(reruns).toBe(0);
  });

  it('a check skipped for want of evidence runs again once the listing moved (a read across the movement may have cut it short)', async () => {
    const skipped: CheckOutcome = {
      ...outcome([]),
      status: 'skipped',
      skipCause: 'no-evidence',
      skipReason: 'the listing could not be read',
    };
    const { outcomes, reruns } = await settle([skipped], true, outcome([]));
    expect(reruns).toBe(1);
    expect(outcomes[0]!.status).toBe('passed');
    expect((await settle([skipped], false, outcome([]))).reruns).toBe(0);
  });
});
