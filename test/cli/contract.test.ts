import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { contractCommand } from '../../src/cli/contract.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { createApp } from '../../src/server/create-app.ts';
import { FAULTS, brokenMock } from '../contract/targets/broken-mocks.ts';
import { closedTarget } from '../closed-target.ts';
import { LISTINGS, spec } from '../helpers.ts';
import { MAIN, runCli, startInProcess } from './cli-helpers.ts';

const SECRET = 'cli-secret-key-77e1';
/** Where nothing listens: connections are refused. */
const DOWN = closedTarget();
const dir = mkdtempSync(join(tmpdir(), 'tempmon-contract-'));
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** The mock with a fault, served over HTTP from this process. */
function brokenServer(faultName: string): Promise<string> {
  // The faults swap in the default key; the run itself sends SECRET.
  const app = createApp({ spec, apiKeys: [SECRET, 'tempmon-dev-key'], dataset: { seed: 2, counts: { alerts: 25, sensors: 5 } } });
  const fetch = brokenMock(app, FAULTS.find((f) => f.name === faultName)!);
  return new Promise((resolve) => {
    servers.push(
      serve({ fetch: (r) => fetch(r), hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server,
    );
  });
}

/** Runs `tempmon contract` in this process: its exit code and what it printed. */
async function contract(args: string[]): Promise<{ status: number; stdout: string }> {
  const lines: string[] = [];
  const status = await contractCommand(args, (text) => lines.push(text));
  return { status, stdout: `${lines.join('\n')}\n` };
}

describe('tempmon contract, the built CLI', () => {
  it('exits 0 against the real mock, with the key from TEMPMON_API_KEY: every check evaluated and passed', async () => {
    const { url } = await startInProcess(serveCommand, ['--quiet', '--api-key', SECRET, '--alerts', '60', '--sensors', '30']);
    const junit = join(dir, 'ok.xml');
    const result = await runCli(['contract', '--target', url, '--strict', '--examples', '5', '--junit', junit], {
      TEMPMON_API_KEY: SECRET,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^conformant$/m);
    // Only the opt-in latency budget is skipped; nothing failed or warned.
    expect(result.stdout.match(/^SKIP \w+/gm)).toEqual(['SKIP max_response_time']);
    expect(result.stdout).not.toMatch(/^(FAIL|WARN) /m);
    expect(result.stdout).toMatch(/^\d+ checks: \d+ passed(, \d+ passed in part \(PART\))?, 0 failed, 1 skipped$/m);
    expect(readFileSync(junit, 'utf8')).toContain('<testsuites');
  });

  // Every case that cannot run, each said once: test/cli/could-not-run.test.ts.
  it('cannot run: a missing spec is said once, on stdout, exit code 2, no key', async () => {
    const result = await runCli(['contract', '--target', DOWN, '--api-key', SECRET, '--spec', '/nonexistent.yaml']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^COULD NOT RUN: cannot read spec \/nonexistent\.yaml[^\n]*\n$/);
    expect(result.stdout).not.toContain(SECRET);
  });
});

describe('tempmon contract', () => {
  it('exits 1 on violations, and no output or report file carries the key or a --header value', async () => {
    const target = await brokenServer('any key accepted');
    const [junit, json, har] = [join(dir, 'broken-all.xml'), join(dir, 'broken-all.json'), join(dir, 'broken-all.har')];
    const result = await contract([
      '--target',
      target,
      '--api-key',
      SECRET,
      '--examples',
      '5',
      '--junit',
      junit,
      '--json',
      json,
      '--har',
      har,
      '--header',
      'x-trace: trace-secret-1',
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^FAIL ignored_auth: /m);
    expect(result.stdout).toMatch(/^NOT conformant/m);
    // Each failure names its exchange in the HAR, in every report.
    const entries = JSON.parse(readFileSync(har, 'utf8')).log.entries;
    const named = [...result.stdout.matchAll(/exchanges: log\.entries\[(\d+)\] in the HAR/g)].map((m) => Number(m[1]));
    expect(named.length).toBeGreaterThan(0);
    for (const index of named) expect(entries[index]).toBeDefined();
    expect(readFileSync(json, 'utf8')).toContain('"harEntries"');
    expect(readFileSync(junit, 'utf8')).toContain('in the HAR');
    for (const text of [result.stdout, readFileSync(junit, 'utf8'), readFileSync(json, 'utf8'), readFileSync(har, 'utf8')]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('trace-secret-1');
    }
  });

  it('runs only the checks named in --checks', async () => {
    vi.stubEnv('TEMPMON_API_KEY', SECRET);
    const target = await brokenServer('any key accepted');
    const result = await contract(['--target', target, '--checks', 'stable_order,not_a_server_error']);
    expect(result.status).toBe(0);
    expect(result.stdout.match(/^(PASS|FAIL|WARN|SKIP) \w+/gm)).toEqual(['PASS stable_order', 'PASS not_a_server_error']);
  });

  it('writes a valid HAR when it cannot run (exit 2), holding the requests it sent', async () => {
    const har = join(dir, 'unreachable.har');
    expect(await contractCommand(['--target', DOWN, '--api-key', SECRET, '--har', har], () => undefined)).toBe(2);
    const entries = JSON.parse(readFileSync(har, 'utf8')).log.entries;
    // One probe per listing, each refused.
    expect(entries.map((e: { response: { status: number }; comment: string }) => [e.response.status, e.comment])).toEqual(
      LISTINGS.map(() => [0, 'connection refused']),
    );
  });

  it('ends the HAR, complete and valid, when interrupted (SIGINT), then dies of the signal', async () => {
    const app = createApp({ spec, apiKeys: [SECRET], dataset: { seed: 2, counts: { alerts: 25, sensors: 5 } } });
    let requests = 0;
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    // Answers 6 requests, then never answers: the run is interrupted while waiting.
    const target = await new Promise<string>((resolve) => {
      const server = serve(
        {
          fetch: (request) => {
            requests += 1;
            if (requests <= 6) return app.fetch(request);
            hung();
            return new Promise<Response>(() => undefined);
          },
          hostname: '127.0.0.1',
          port: 0,
        },
        (info) => resolve(`http://127.0.0.1:${info.port}`),
      ) as Server;
      servers.push(server);
    });
    const har = join(dir, 'interrupted.har');
    // One request at a time: each answer is in the HAR before the next request is sent.
    const child = spawn(process.execPath, [MAIN, 'contract', '--target', target, '--concurrency', '1', '--har', har], {
      env: { ...process.env, TEMPMON_API_KEY: SECRET },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await hanging;
    child.kill('SIGINT');
    expect(await exited).toBe('SIGINT');
    const text = readFileSync(har, 'utf8');
    expect(text).not.toContain(SECRET);
    const entries = JSON.parse(text).log.entries;
    // The 6 answered, none of them cut short (the seventh, never answered, was not written).
    expect(entries).toHaveLength(6);
    for (const entry of entries) expect([200, 401]).toContain(entry.response.status);
  });

  it.each([
    [[], '--target URL is required'],
    [['--target', 'ftp://x'], '--target must be an http(s) URL'],
    [['--target', DOWN], 'no API key: set TEMPMON_API_KEY or pass --api-key'],
    [['--target', DOWN, '--api-key', SECRET], `cannot reach ${DOWN}/alert: connection refused`],
    [['--target', DOWN, '--api-key', SECRET, '--checks', 'nope'], 'unknown check nope (tempmon contract --help lists the '],
    [['--target', DOWN, '--api-key', SECRET, '--checks', 'stable_ordr'], 'unknown check stable_ordr; did you mean stable_order?'],
    [['--target', DOWN, '--api-key', SECRET, '--timeout', '0'], '--timeout must be an integer from 1'],
    [['--target', DOWN, '--api-key', SECRET, '--concurrency', '0'], '--concurrency must be an integer from 1 to 64'],
    [['--target', DOWN, '--api-key', SECRET, '--header', 'no colon'], "--header must look like 'Name: value'"],
    [['--target', DOWN, '--api-key', SECRET, '--spec', '/nonexistent.yaml'], 'cannot read spec /nonexistent.yaml'],
    [['--target', DOWN, '--api-key', SECRET, '--no-such-option'], 'unknown option --no-such-option'],
  ])('contract %j cannot run: one line, no key', async (args, message) => {
    vi.stubEnv('TEMPMON_API_KEY', '');
    const result = await contract(args);
    expect(result.status).toBe(2);
    // The verdict is the last line on stdout, a run that could not run included: the only line when it is short.
    expect(result.stdout).toMatch(/^COULD NOT RUN: [^\n]+\n$/);
    expect(result.stdout).toContain(message);
    expect(result.stdout).not.toContain(SECRET);
  });

  it('a report path that cannot be written stops the run at once, and the other report still says why', async () => {
    vi.stubEnv('TEMPMON_API_KEY', SECRET);
    const json = join(dir, 'still-written.json');
    const result = await contract(['--target', DOWN, '--junit', join(dir, 'no-such-dir', 'x.xml'), '--json', json]);
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/--junit .*x\.xml cannot be written: no such file or directory/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { verdict: string; reason: string };
    expect(report).toMatchObject({ verdict: 'could not run' });
    expect(report.reason).toMatch(/--junit/);
  });

  it('refuses to run with a key the target rejects', async () => {
    vi.stubEnv('TEMPMON_API_KEY', SECRET);
    const { url } = await startInProcess(serveCommand, ['--quiet', '--api-key', 'tempmon-dev-key']);
    const result = await contract(['--target', url]);
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/refused the API key \(401\)/);
    expect(result.stdout).not.toContain(SECRET);
  });

  it('lists every check in --help', async () => {
    const result = await contract(['--help']);
    expect(result.status).toBe(0);
    for (const name of ['ignored_auth', 'negative_data_rejection', 'status_code_conformance', 'response_schema_conformance']) {
      expect(result.stdout).toContain(name);
    }
  });
});
