// One rule for nulls: the spec types fields non-null and assumes (x-assumed) that an absent value is left out
// rather than sent as null. A null breaks that assumption: a warning, an error under --strict, whatever the type.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { runInProcess, spec } from '../../helpers.ts';
import { mapPage, type Json } from '../targets/broken-mocks.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 30, sensors: 30 } } });

/** The mock with `field` sent as null in every record of `path`'s pages. */
const nulled = (path: string, field: string) => async (request: Request) => {
  const response = await app.fetch(request);
  return new URL(request.url).pathname === path
    ? mapPage(response, (records) => records.map((r: Json) => ({ ...r, [field]: null })))
    : response;
};

describe('a null where the spec types a field non-null', () => {
  it.each([
    ['a string', '/alert', 'handling_unit_id', 'listAlerts'],
    ['a number', '/alert', 'min_temp', 'listAlerts'],
    ['an array', '/alert', 'sites_id', 'listAlerts'],
    ['a number on the other listing', '/sensor', 'battery_level', 'listSensors'],
  ])('%s field (%s %s): a warning, and under --strict a failure', async (_, path, field, operationId) => {
    const run = (strict: boolean) => runInProcess(nulled(path, field), { checks: ['response_schema_conformance'], seed: 1, strict });
    const report = await run(false);
    const findings = report.outcomes.filter((o) => o.operationId === operationId).flatMap((o) => o.failures);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.severity === 'warning' && f.message.includes(`.${field} must be`))).toBe(true);
    expect(report.verdict).toBe('conformant');
    expect((await run(true)).verdict).toBe('not conformant');
  });

  it('a wrong type that is not null stays an error', async () => {
    const wrong = async (request: Request) =>
      mapPage(await app.fetch(request), (records) => records.map((r: Json) => ({ ...r, min_temp: 'cold' })));
    const report = await runInProcess(wrong, { checks: ['response_schema_conformance'], seed: 1 });
    expect(report.outcomes.find((o) => o.operationId === 'listAlerts')?.failures.some((f) => f.severity === 'error')).toBe(true);
  });
});
