// A listing added to the spec alone, run through the built CLI as a user would: /shipment written into a copy of
// the spec, then served with seeded records (search, paging), checked by `contract --strict`, validated by the
// proxy, written by `fixtures` and typed for a consumer, with --spec FILE and no code of ours changed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../../src/spec/schema-validator.ts';
import { ROOT } from '../built-cli.ts';
import { runCli, startServe } from '../cli/cli-helpers.ts';
import { KEY } from '../helpers.ts';
import { withShipments } from '../spec/with-shipments.ts';

const shipments = withShipments();
const validator = createSchemaValidator(shipments.document);
const dir = mkdtempSync(join(tmpdir(), 'tempmon-third-listing-'));
const specFile = join(dir, 'openapi.yaml');
writeFileSync(specFile, shipments.source);

type Shipment = { id: string; reference: string };
const headers = { 'x-api-key': KEY };
const page = async (url: string) => {
  const response = await fetch(url, { headers });
  expect(response.status, url).toBe(200);
  return { total: Number(response.headers.get('x-total-count')), records: (await response.json()) as Shipment[] };
};

describe('a third listing, added to a copy of the spec only, through the built CLI with --spec', () => {
  let served: Awaited<ReturnType<typeof startServe>>;
  beforeAll(async () => {
    served = await startServe(['--spec', specFile, '--shipments', '30', '--seed', '4', '--quiet']);
  }, 60_000);
  afterAll(() => served?.stop());

  it('serves it: seeded records of its schema, paging and search, named in the banner', async () => {
    expect(served.output()).toMatch(/seed 4: \d+ alerts, \d+ sensors, 30 shipments/);
    const first = await page(`${served.url}/shipment?pageSize=10`);
    expect(first.total).toBe(30);
    expect(first.records).toHaveLength(10);
    expect(first.records.flatMap((record, i) => validator.validate('Shipment', record, `[${i}]`))).toEqual([]);
    const third = await page(`${served.url}/shipment?pageSize=10&page=3`);
    expect(third.records).toHaveLength(10);
    expect(third.records.map((r) => r.id)).not.toContain(first.records[0]!.id);
    const found = await page(`${served.url}/shipment?search=${first.records[3]!.reference}`);
    expect(found.records.map((r) => r.id)).toContain(first.records[3]!.id);
    // The same seed gives the same records on every run and machine.
    const again = await startServe(['--spec', specFile, '--shipments', '30', '--seed', '4', '--quiet']);
    expect((await page(`${again.url}/shipment?pageSize=10`)).records).toEqual(first.records);
    await again.stop();
  });

  it('is conformant by contract --strict, the new listing checked like ours', async () => {
    const result = await runCli(['contract', '--target', served.url, '--spec', specFile, '--strict', '--seed', '1'], {
      TEMPMON_API_KEY: KEY,
    });
    const verdict = result.stdout.trimEnd().split('\n').at(-1)!;
    expect(verdict, result.stdout + result.stderr).toBe('conformant');
    // Every check ran on it too: the covering set's pairs included.
    expect(result.stdout).toMatch(/pairs of parameter classes covered: .*listShipments 250 of 250/);
    expect(result.status).toBe(0);
  }, 120_000);

  it('is forwarded and validated by the proxy, which names it in its help', async () => {
    const help = await runCli(['proxy', '--spec', specFile, '--help']);
    expect(help.stdout).toContain('Forwards GET /alert, /sensor, and /shipment to a real deployment');
    const proxy = await startServe(['--spec', specFile, '--target', served.url, '--quiet'], 'proxy');
    const through = await page(`${proxy.url}/shipment?pageSize=5`);
    expect(through.records).toEqual((await page(`${served.url}/shipment?pageSize=5`)).records);
    expect(await (await fetch(`${proxy.url}/__tempmon/violations`)).json()).toEqual({ count: 0, violations: [] });
    await proxy.stop();
  });

  it('is written by fixtures, as a data file serve --data takes', async () => {
    const file = join(dir, 'data.json');
    const written = await runCli(['fixtures', '--spec', specFile, '--alerts', '0', '--sensors', '0', '--shipments', '7', '--out', file]);
    expect(written.stdout).toContain('seed 1: 0 alerts, 0 sensors, 7 shipments');
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Shipment[]>;
    expect(data.shipments).toHaveLength(7);
    const fromFile = await startServe(['--spec', specFile, '--data', file, '--quiet']);
    expect((await page(`${fromFile.url}/shipment`)).records).toEqual(data.shipments);
    await fromFile.stop();
  });

  it("types it for a consumer: types generated from the copy, and a consumer's type-check", () => {
    const bin = (path: string) => join(ROOT, 'node_modules', path);
    execFileSync(process.execPath, [bin('openapi-typescript/bin/cli.js'), specFile, '-o', join(dir, 'openapi.ts')], { stdio: 'ignore' });
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import type { paths } from './openapi.ts';
type Shipment = paths['/shipment']['get']['responses'][200]['content']['application/json'][number];
export const ok: Shipment = { id: '0b0e9c7e-0000-4000-8000-000000000000', created_at: '2026-01-01T00:00:00Z', reference: 'SHP-000001' };
// @ts-expect-error a field the schema does not have
export const extra: Shipment = { ...ok, colour: 'red' };
// @ts-expect-error reference is required
export const missing: Shipment = { id: ok.id, created_at: ok.created_at };
`,
    );
    const tsc = () =>
      execFileSync(
        process.execPath,
        [
          bin('typescript/bin/tsc'),
          '--noEmit',
          '--strict',
          '--allowImportingTsExtensions',
          '--module',
          'nodenext',
          join(dir, 'consumer.ts'),
        ],
        { encoding: 'utf8' },
      );
    expect(tsc()).toBe('');
    // And it would say so: a consumer misusing a field does not type-check.
    writeFileSync(
      join(dir, 'consumer.ts'),
      `${readFileSync(join(dir, 'consumer.ts'), 'utf8')}export const wrong: number = ok.reference;\n`,
    );
    const failed = (() => {
      try {
        tsc();
      } catch (error) {
        return (error as { stdout: string }).stdout;
      }
      return 'no error';
    })();
    expect(failed).toMatch(/Type 'string' is not assignable to type 'number'/);
  });
});
