import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/create-app.ts';
import { FAULTS, brokenMock } from '../contract/broken-mocks.ts';
import { spec } from '../helpers.ts';
import { runAsync, startServe } from './cli-helpers.ts';

const SECRET = 'cli-secret-key-77e1';
const dir = mkdtempSync(join(tmpdir(), 'tempmon-contract-'));
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** The mock with a fault, served over HTTP from this process. */
function brokenServer(faultName: string): Promise<string> {
  // The faults swap in the default key; the run itself sends SECRET.
  const app = createApp({ spec, apiKeys: [SECRET, 'tempmon-dev-key'], dataset: { seed: 2, counts: { alerts: 25, sensors: 5 } } });
  const fetch = brokenMock(app, FAULTS.find((f) => f.name === faultName)!);
  return new Promise((resolve) => {
    servers.push(serve({ fetch: (r) => fetch(r), hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server);
  });
}

describe('tempmon contract', () => {
  it('exits 0 against the real mock, with the key from TEMPMON_API_KEY', async () => {
    const { url } = await startServe(['--quiet', '--api-key', SECRET]);
    const junit = join(dir, 'ok.xml');
    const result = await runAsync(['contract', '--target', url, '--strict', '--junit', junit], { TEMPMON_API_KEY: SECRET });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^conformant$/m);
    // Every check evaluated: only the opt-in latency budget is skipped, on both listings.
    expect(result.stdout.match(/^SKIP \w+/gm)).toEqual(['SKIP max_response_time']);
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed, 2 skipped$/m);
    expect(readFileSync(junit, 'utf8')).toContain('<testsuites');
  });

  it('exits 1 on violations, and no output or report file carries the key', async () => {
    const target = await brokenServer('any key accepted');
    const junit = join(dir, 'broken.xml');
    const json = join(dir, 'broken.json');
    const result = await runAsync(['contract', '--target', target, '--api-key', SECRET, '--junit', junit, '--json', json, '--header', 'x-trace: trace-secret-1']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^FAIL ignored_auth: /m);
    expect(result.stdout).toMatch(/^NOT conformant/m);
    for (const text of [result.stdout, result.stderr, readFileSync(junit, 'utf8'), readFileSync(json, 'utf8')]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('trace-secret-1');
    }
  });

  it('runs only the checks named in --checks', async () => {
    const target = await brokenServer('any key accepted');
    const result = await runAsync(['contract', '--target', target, '--checks', 'stable_order,not_a_server_error'], { TEMPMON_API_KEY: SECRET });
    expect(result.status).toBe(0);
    expect(result.stdout.match(/^(PASS|FAIL|WARN|SKIP) \w+/gm)).toEqual(['PASS stable_order', 'PASS not_a_server_error']);
  });

  it.each([
    [['contract'], '--target URL is required'],
    [['contract', '--target', 'ftp://x'], '--target must be an http(s) URL'],
    [['contract', '--target', 'http://127.0.0.1:1'], 'no API key: set TEMPMON_API_KEY or pass --api-key'],
    [['contract', '--target', 'http://127.0.0.1:1', '--api-key', SECRET], 'cannot reach http://127.0.0.1:1/alert: connection refused'],
    [['contract', '--target', 'http://127.0.0.1:1', '--api-key', SECRET, '--checks', 'nope'], 'unknown check nope'],
    [['contract', '--target', 'http://127.0.0.1:1', '--api-key', SECRET, '--timeout', '0'], '--timeout must be an integer from 1'],
    [['contract', '--target', 'http://127.0.0.1:1', '--api-key', SECRET, '--header', 'no colon'], "--header must look like 'Name: value'"],
    [['contract', '--target', 'http://127.0.0.1:1', '--api-key', SECRET, '--spec', '/nonexistent.yaml'], 'cannot read spec /nonexistent.yaml'],
  ])('%j cannot run: one line, exit code 2, no key', async (args, message) => {
    const result = await runAsync(args, { TEMPMON_API_KEY: '' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr + result.stdout).not.toContain(SECRET);
  });

  it('a report path that cannot be written stops the run at once, and the other report still says why', async () => {
    const json = join(dir, 'still-written.json');
    const result = await runAsync(['contract', '--target', 'http://127.0.0.1:1', '--junit', join(dir, 'no-such-dir', 'x.xml'), '--json', json], { TEMPMON_API_KEY: SECRET });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--junit .*x\.xml cannot be written: ENOENT/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { verdict: string; reason: string };
    expect(report).toMatchObject({ verdict: 'could not run' });
    expect(report.reason).toMatch(/--junit/);
  });

  it('refuses to run with a key the target rejects (exit 2)', async () => {
    const { url } = await startServe(['--quiet']);
    const result = await runAsync(['contract', '--target', url], { TEMPMON_API_KEY: SECRET });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/refused the API key \(401\)/);
    expect(result.stderr).not.toContain(SECRET);
  });

  it('lists every check in --help', async () => {
    const result = await runAsync(['contract', '--help']);
    expect(result.status).toBe(0);
    for (const name of ['ignored_auth', 'negative_data_rejection', 'status_code_conformance', 'response_schema_conformance']) {
      expect(result.stdout).toContain(name);
    }
  });
});
