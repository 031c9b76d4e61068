// documented_order claims what it saw: the primary order always, the tiebreak only where records tie.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/fixtures/generate-dataset.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { runInProcess, spec } from '../../helpers.ts';

const base = generateDataset(spec.document, { seed: 8, counts: { alerts: 60, sensors: 20 } });
/** Every three alerts share a created_at: ties the tiebreak (id ascending) decides. */
const tied = {
  ...base,
  alerts: base.alerts!.map((alert, i, all) => ({ ...alert, created_at: all[i - (i % 3)]!.created_at })),
};
const order = (data: typeof base, fetch?: (app: ReturnType<typeof createApp>) => (request: Request) => Promise<Response>) => {
  const app = createApp({ spec, data });
  return runInProcess(fetch ? fetch(app) : (request) => app.fetch(request), { checks: ['documented_order'], seed: 1 });
};
const alerts = (report: Awaited<ReturnType<typeof order>>) => report.outcomes.find((o) => o.operationId === 'listAlerts')!;

describe('documented_order says what it saw', () => {
  it('reports the tiebreak as not observable where no two records share created_at, without making the run inconclusive', async () => {
    const report = await order(base);
    expect(alerts(report)).toMatchObject({
      status: 'passed',
      failures: [],
      notObserved: ['the tiebreak by id ascending: no two records read share created_at'],
    });
    expect(report.verdict).toBe('conformant');
  });

  it('checks the tiebreak where records tie, and finds ties broken by id descending', async () => {
    expect(alerts(await order(tied)).notObserved).toBeUndefined();
    const reversed = await order(tied, (app) => async (request) => {
      const response = await app.fetch(request);
      if (!new URL(request.url).pathname.endsWith('/alert') || response.status !== 200) return response;
      const records = (await response.json()) as { created_at: string; id: string }[];
      records.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
      return new Response(JSON.stringify(records), { status: 200, headers: response.headers });
    });
    expect(alerts(reversed).failures.map((f) => [f.severity, f.message])).toEqual([
      ['warning', expect.stringMatching(/^records \d+ and \d+ of the listing are out of order/)],
    ]);
  });
});
