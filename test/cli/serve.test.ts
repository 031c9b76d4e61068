import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { fixturesCommand } from '../../src/cli/fixtures.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { noOtherRecords } from '../helpers.ts';
import { MAIN, expectOneLineExit2, runCli, startInProcess, startServe, usageError } from './cli-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'tempmon-cli-'));
const KEY = { 'x-api-key': 'tempmon-dev-key' };
/** Writes a generated data file, as `tempmon fixtures --out` does. */
const writeFixtures = (file: string, ...args: string[]) => fixturesCommand([...args, '--out', file], () => undefined);

describe('tempmon serve, the built CLI', () => {
  it('serves the default data with the default key, logs requests without the key, and stops on SIGTERM', async () => {
    const { url, output, waitFor, stop } = await startServe([]);
    expect(output()).toMatch(/seed 1: 300 alerts, 150 sensors/);
    expect(output()).toContain('key: tempmon-dev-key');
    const ok = await fetch(`${url}/alert?pageSize=3`, { headers: KEY });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-total-count')).toBe('300');
    expect(await ok.json()).toHaveLength(3);
    const denied = await fetch(`${url}/sensor`, { headers: { 'x-api-key': 'secret-guess-123' } });
    expect(denied.status).toBe(401);
    await waitFor(/GET \/sensor 401/);
    expect(output()).toMatch(/GET \/alert\?pageSize=3 200/);
    expect(output()).not.toContain('secret-guess-123');
    expect(await stop()).toBe(0);
  });

  it('stops on SIGTERM within 2 s, exit 0, with a request still in flight (its connection cut after a grace)', async () => {
    const { url, stop } = await startServe(['--quiet']);
    const request = httpRequest(`${url}/alert`, { headers: { ...KEY, prefer: 'delay=20000' } });
    const held = new Promise((resolve) => {
      request.on('response', (response) => resolve(response.statusCode));
      request.on('error', () => resolve('cut'));
    });
    request.end();
    await once(request, 'finish');
    // Sent before it, the held request is being served once this one, on another connection, is answered.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const started = performance.now();
    expect(await stop()).toBe(0);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await held).toBe('cut');
  });

  it('lists its commands in --help', async () => {
    const top = await runCli(['--help']);
    expect(top.status).toBe(0);
    expect(top.stdout).toMatch(/serve[\s\S]*fixtures[\s\S]*assumptions/);
  });

  it('reports a usage error, a bad data file and an unknown command as one line, exit code 2', async () => {
    const bad = join(dir, 'bad-for-cli.json');
    writeFileSync(bad, JSON.stringify({ sensors: [{ battery_level: 'full' }] }));
    const [option, data, command, typo, missing, negative] = await Promise.all([
      runCli(['serve', '--bogus']),
      runCli(['serve', '--data', bad]),
      runCli(['frobnicate']),
      runCli(['--verison']),
      runCli(['serve', '--data', join(dir, 'no-such-file.json')]),
      runCli(['serve', '--seed', '-1']),
    ]);
    expectOneLineExit2(option, 'unknown option --bogus (see tempmon serve --help)');
    expectOneLineExit2(data, 'bad-for-cli.json: sensors[0].battery_level must be integer');
    expectOneLineExit2(command, 'unknown command "frobnicate" (see tempmon --help)');
    // Words, not codes: the closest command, the system's wording of ENOENT, what is wrong with -1.
    expectOneLineExit2(typo, 'unknown command "--verison"; did you mean --version?');
    expectOneLineExit2(missing, 'no-such-file.json: cannot read data file (no such file or directory)');
    expectOneLineExit2(negative, '--seed must be an integer from 0 to');
    expect(negative.stderr).toContain('got "-1"');
  });

  it("stops at once on a Node older than package.json supports, with the npm scripts' message (exit 2)", async (context) => {
    // The machine's own Node, when it is an old one (Debian's 20 here); CI puts the supported ones first on PATH.
    const old = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
      const found = spawnSync(path, ['--version'], { encoding: 'utf8' });
      return found.status === 0 && Number(/^v(\d+)/.exec(found.stdout)?.[1]) < 24;
    });
    if (!old) return context.skip('no Node older than 24 on this machine');
    const run = spawnSync(old, [MAIN, '--version'], { encoding: 'utf8' });
    const script = spawnSync(old, [fileURLToPath(new URL('../../src/build/require-node.mjs', import.meta.url))], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^tempmon-kit needs Node >=24\.18\.0; this is Node \d+\./);
    expect(script.status).toBe(2);
    expect(run.stderr).toBe(script.stderr);
  });
});

describe('tempmon serve', () => {
  it.each(['compact', 'json'])(
    'says a large dataset is indexed in the background, then one line when search is ready (--quiet, --log-format %s)',
    async (format) => {
      // Past SYNC_INDEX_LIMIT (50,000 records): searches wait for the background build.
      const { url, output, waitFor } = await startInProcess(serveCommand, [
        '--alerts',
        '60000',
        '--sensors',
        '0',
        ...noOtherRecords('alerts', 'sensors'),
        '--quiet',
        '--log-format',
        format,
      ]);
      expect(output()).toContain('  search: indexing in the background; searches answer 503 until it is ready (/readyz shows how far)');
      await waitFor(/search ready/, 120_000);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const line = output()
        .split('\n')
        .find((l) => l.includes('search ready'))!;
      if (format === 'compact') expect(line).toMatch(/^ {2}search ready: 60,000 records indexed in \d+\.\d s$/);
      else
        expect(JSON.parse(line)).toMatchObject({
          level: 30,
          msg: expect.stringMatching(/^search ready: 60,000 records indexed in/),
          event: 'search-ready',
          records: 60_000,
        });
    },
    150_000,
  );

  it('takes --seed, counts and --api-key, and never prints a key it was given', async () => {
    const { url, output } = await startInProcess(serveCommand, [
      '--seed',
      '7',
      '--alerts',
      '12',
      '--sensors',
      '3',
      '--api-key',
      'k-one',
      '--api-key',
      'k-two',
    ]);
    expect(output()).toMatch(/seed 7: 12 alerts, 3 sensors/);
    expect(output()).not.toMatch(/k-one|k-two/);
    for (const key of ['k-one', 'k-two']) {
      const response = await fetch(`${url}/sensor?pageSize=100`, { headers: { 'x-api-key': key } });
      expect(await response.json()).toHaveLength(3);
    }
    expect((await fetch(`${url}/sensor`, { headers: KEY })).status).toBe(401);
  });

  it("takes each option's TEMPMON_<NAME> when the flag is not given, as a container's env sets them; a flag wins", async () => {
    vi.stubEnv('TEMPMON_SEED', '7');
    vi.stubEnv('TEMPMON_ALERTS', '12');
    vi.stubEnv('TEMPMON_SENSORS', '99');
    vi.stubEnv('TEMPMON_HOST', '127.0.0.1');
    vi.stubEnv('TEMPMON_LOG_FORMAT', 'json');
    vi.stubEnv('TEMPMON_API_KEY', 'k-env');
    const { url, output, waitFor } = await startInProcess(serveCommand, ['--sensors', '3']);
    expect(output()).toMatch(/seed 7: 12 alerts, 3 sensors/);
    expect((await fetch(`${url}/sensor`, { headers: KEY })).status).toBe(401);
    expect((await fetch(`${url}/sensor?pageSize=100`, { headers: { 'x-api-key': 'k-env' } })).status).toBe(200);
    await waitFor(/"url":"\/sensor\?pageSize=100","status":200/);
    expect(output()).not.toContain('k-env');
    vi.stubEnv('TEMPMON_LOG_FORMAT', 'xml');
    expect((await usageError(() => serveCommand(['--port', '0'], () => undefined))).message).toMatch(/log-format/);
  });

  it('serves a data file', async () => {
    const file = join(dir, 'data.json');
    await writeFixtures(file, '--seed', '3', '--alerts', '2', '--sensors', '0');
    const { url, output } = await startInProcess(serveCommand, ['--data', file]);
    expect(output()).toContain(`data: ${file} (2 alerts, 0 sensors`);
    const body = await (await fetch(`${url}/alert`, { headers: KEY })).json();
    expect(body).toHaveLength(2);
  });

  it('with --watch, reloads the data file on change and keeps the last good data after a bad edit', async () => {
    const file = join(dir, 'watched.json');
    await writeFixtures(file, '--seed', '3', '--alerts', '2', '--sensors', '1');
    const { url, output, waitFor } = await startInProcess(serveCommand, ['--data', file, '--watch', '--quiet']);
    const count = async () => ((await (await fetch(`${url}/alert`, { headers: KEY })).json()) as unknown[]).length;
    expect(await count()).toBe(2);

    await writeFixtures(file, '--seed', '3', '--alerts', '5', '--sensors', '1');
    await waitFor(`reloaded ${file} (5 alerts, 1 sensors`);
    expect(await count()).toBe(5);

    const broken = JSON.parse(readFileSync(file, 'utf8'));
    broken.alerts[1].created_at = 'soon';
    writeFileSync(file, JSON.stringify(broken));
    await waitFor('kept the last good data');
    expect(output()).toContain(`kept the last good data: ${file}: alerts[1].created_at must match format "date-time"`);
    expect(await count()).toBe(5);
  });

  it('reports a port in use as one line', async () => {
    const { url } = await startInProcess(serveCommand, ['--quiet']);
    const error = await usageError(() => serveCommand(['--port', new URL(url).port, '--quiet'], () => undefined));
    expect(error.message).toMatch(/^cannot listen on 127\.0\.0\.1:\d+: address already in use$/);
  });

  it('lists its options in --help', async () => {
    const lines: string[] = [];
    expect(await serveCommand(['--help'], (line) => lines.push(line))).toBeUndefined();
    for (const option of ['--port', '--host', '--seed', '--alerts', '--sensors', '--api-key', '--data', '--help']) {
      expect(lines.join('\n')).toContain(option);
    }
  });

  it('prints the same fixtures bytes each time', async () => {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    await writeFixtures(a, '--seed', '9', '--alerts', '3', '--sensors', '2');
    await writeFixtures(b, '--seed', '9', '--alerts', '3', '--sensors', '2');
    expect(JSON.parse(readFileSync(a, 'utf8')).alerts).toHaveLength(3);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
  });

  it('says before writing when the file will be over what serve --data reads, and what serves it instead', async () => {
    const notes: string[] = [];
    const logged: string[] = [];
    // Into a folder that does not exist: the estimate comes first, and nothing is written.
    const error = await usageError(() =>
      fixturesCommand(
        ['--alerts', '200000', '--sensors', '200000', ...noOtherRecords('alerts', 'sensors'), '--out', join(dir, 'none', 'big.json')],
        (l) => logged.push(l),
        (l) => notes.push(l),
      ),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^tempmon: note: this data file will be about 30\d\.\d MiB, over the 256\.0 MiB serve --data reads; /);
    expect(notes[0]).toContain('tempmon serve --seed 1 --alerts 200000 --sensors 200000');
    expect(notes[0]).toMatch(/ serves the same records without a file$/);
    expect(error.message).toMatch(/cannot write .*big\.json: no such file or directory/);
    expect(logged).toEqual([]);
    // A small file: no note, and the line says its size.
    await fixturesCommand(
      ['--alerts', '5', '--out', join(dir, 'small.json')],
      (l) => logged.push(l),
      (l) => notes.push(l),
    );
    expect(notes).toHaveLength(1);
    expect(logged).toEqual([expect.stringMatching(/^wrote .*small\.json \(\d+\.\d MiB; seed 1: 5 alerts, 150 sensors(, \d+ \w+)*\)$/)]);
  });
});

describe('tempmon serve usage errors', () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ sensors: [{ battery_level: 'full' }] }));

  it.each([
    [['--bogus'], 'unknown option --bogus (see tempmon serve --help)'],
    [['--port'], 'option --port needs a value'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [['--alerts', '-1'], '--alerts must be an integer from 0 to'],
    [['--alerts=-1'], '--alerts must be an integer from 0 to 10000000, got "-1"'],
    [['--alerts', 'many'], '--alerts must be an integer from 0 to 10000000, got "many"'],
    [['--seed', '1.5'], '--seed must be an integer'],
    [['--api-key', ''], '--api-key must not be empty'],
    [['--data', bad, '--seed', '2'], '--data cannot be combined'],
    [['--data', join(dir, 'none.json')], 'none.json: cannot read data file (no such file or directory)'],
    [['--data', bad], 'bad.json: sensors[0].battery_level must be integer'],
    [['extra'], 'unexpected argument extra'],
    [['--latency', 'slow'], '--latency must be milliseconds (200) or a range (100-800)'],
    [['--latency', '800-100'], '--latency must be'],
    [['--error-rate', '1.5'], '--error-rate must be a number from 0 to 1, got "1.5"'],
    [['--rate-limit', '0'], '--rate-limit must be an integer from 1'],
    [['--watch'], '--watch needs --data FILE'],
    [['--spec', join(dir, 'none.yaml')], 'none.yaml: no such file or directory'],
  ])('serve %j fails with one line', async (args, message) => {
    const error = await usageError(() => serveCommand(['--port', '0', ...args], () => undefined));
    expect(error.message).toContain(message);
  });
});
