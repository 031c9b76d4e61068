import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, startServe } from './cli-helpers.ts';

describe('tempmon serve (real HTTP)', () => {
  it('serves the default data with the default key and logs requests without the key', async () => {
    const { url, output } = await startServe([]);
    expect(output()).toMatch(/seed 1: 300 alerts, 150 sensors/);
    expect(output()).toContain('key: tempmon-dev-key');
    const ok = await fetch(`${url}/alert?pageSize=3`, { headers: { 'x-api-key': 'tempmon-dev-key' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-total-count')).toBe('300');
    expect(await ok.json()).toHaveLength(3);
    const denied = await fetch(`${url}/sensor`, { headers: { 'x-api-key': 'secret-guess-123' } });
    expect(denied.status).toBe(401);
    await new Promise((r) => setTimeout(r, 100));
    expect(output()).toMatch(/GET \/alert\?pageSize=3 200/);
    expect(output()).not.toContain('secret-guess-123');
  });

  it('takes --seed, counts and --api-key, and never prints a key it was given', async () => {
    const { url, output } = await startServe(['--seed', '7', '--alerts', '12', '--sensors', '3', '--api-key', 'k-one', '--api-key', 'k-two']);
    expect(output()).toMatch(/seed 7: 12 alerts, 3 sensors/);
    expect(output()).not.toMatch(/k-one|k-two/);
    for (const key of ['k-one', 'k-two']) {
      const response = await fetch(`${url}/sensor?pageSize=100`, { headers: { 'x-api-key': key } });
      expect(await response.json()).toHaveLength(3);
    }
    expect((await fetch(`${url}/sensor`, { headers: { 'x-api-key': 'tempmon-dev-key' } })).status).toBe(401);
  });

  it('serves a data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempmon-cli-'));
    const file = join(dir, 'data.json');
    expect(run('fixtures', '--seed', '3', '--alerts', '2', '--sensors', '0', '--out', file).status).toBe(0);
    const { url, output } = await startServe(['--data', file]);
    expect(output()).toContain(`data: ${file} (2 alerts, 0 sensors)`);
    const body = await (await fetch(`${url}/alert`, { headers: { 'x-api-key': 'tempmon-dev-key' } })).json();
    expect(body).toHaveLength(2);
  });
});

describe('tempmon serve --watch', () => {
  it('reloads the data file on change and keeps the last good data after a bad edit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempmon-watch-'));
    const file = join(dir, 'data.json');
    expect(run('fixtures', '--seed', '3', '--alerts', '2', '--sensors', '1', '--out', file).status).toBe(0);
    const { url, output } = await startServe(['--data', file, '--watch', '--quiet']);
    const count = async () => ((await (await fetch(`${url}/alert`, { headers: { 'x-api-key': 'tempmon-dev-key' } })).json()) as unknown[]).length;
    const until = async (test: () => boolean | Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await test()); i += 1) await new Promise((r) => setTimeout(r, 50));
    };
    expect(await count()).toBe(2);

    expect(run('fixtures', '--seed', '3', '--alerts', '5', '--sensors', '1', '--out', file).status).toBe(0);
    await until(async () => (await count()) === 5);
    expect(await count()).toBe(5);
    expect(output()).toContain(`reloaded ${file} (5 alerts, 1 sensors)`);

    const broken = JSON.parse(readFileSync(file, 'utf8'));
    broken.alerts[1].created_at = 'soon';
    writeFileSync(file, JSON.stringify(broken));
    await until(() => output().includes('kept the last good data'));
    expect(output()).toContain(`kept the last good data: ${file}: alerts[1].created_at must match format "date-time"`);
    expect(await count()).toBe(5);
  });
});

describe('tempmon command line errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tempmon-cli-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ sensors: [{ battery_level: 'full' }] }));

  it.each([
    [['serve', '--bogus'], 'unknown option --bogus (see tempmon serve --help)'],
    [['serve', '--port'], 'option --port needs a value'],
    [['serve', '--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [['serve', '--alerts', '-1'], 'option --alerts needs a value (write --alerts=-N'],
    [['serve', '--alerts=-1'], '--alerts must be an integer from 0 to 10000000, got "-1"'],
    [['serve', '--alerts', 'many'], '--alerts must be an integer from 0 to 10000000, got "many"'],
    [['serve', '--seed', '1.5'], '--seed must be an integer'],
    [['serve', '--api-key', ''], '--api-key must not be empty'],
    [['serve', '--data', bad, '--seed', '2'], '--data cannot be combined'],
    [['serve', '--data', join(dir, 'none.json')], 'none.json: cannot read data file (ENOENT)'],
    [['serve', '--data', bad], 'bad.json: sensors[0].battery_level must be integer'],
    [['serve', 'extra'], 'unexpected argument extra'],
    [['serve', '--latency', 'slow'], '--latency must be milliseconds (200) or a range (100-800)'],
    [['serve', '--latency', '800-100'], '--latency must be'],
    [['serve', '--error-rate', '1.5'], '--error-rate must be a number from 0 to 1, got "1.5"'],
    [['serve', '--rate-limit', '0'], '--rate-limit must be an integer from 1'],
    [['serve', '--watch'], '--watch needs --data FILE'],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('%j fails with one line and exit code 2', (args, message) => {
    const result = run(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^tempmon: /);
  });

  it('reports a port in use as one line, exit code 2', async () => {
    const { url } = await startServe(['--quiet']);
    const result = run('serve', '--port', new URL(url).port);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^tempmon: cannot listen on 127\.0\.0\.1:\d+: address already in use\n$/);
  });

  it('lists subcommands and options in --help', () => {
    const top = run('--help');
    expect(top.status).toBe(0);
    expect(top.stdout).toMatch(/serve[\s\S]*fixtures[\s\S]*assumptions/);
    const serve = run('serve', '--help');
    for (const option of ['--port', '--host', '--seed', '--alerts', '--sensors', '--api-key', '--data', '--help']) {
      expect(serve.stdout).toContain(option);
    }
  });

  it('prints fixtures to stdout, the same bytes each time', () => {
    const a = run('fixtures', '--seed', '9', '--alerts', '3', '--sensors', '2');
    expect(a.status).toBe(0);
    expect(JSON.parse(a.stdout).alerts).toHaveLength(3);
    expect(run('fixtures', '--seed', '9', '--alerts', '3', '--sensors', '2').stdout).toBe(a.stdout);
  });
});
