// The options every runtime entry shares (src/options/runtime-options.ts), and the query validators a
// Worker gets compiled ahead of time: they must word a 400 as Ajv does at run time on Node.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.ts';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { loadData } from '../../src/runtimes/load-data.ts';
import { precompiledValidator } from '../../src/runtimes/precompiled-validator.ts';
import { RuntimeOptionError, runtimeMock } from '../../src/options/runtime-options.ts';
import { parseServeArgs } from '../../src/options/serve-options.ts';
import { DEFAULT_API_KEY } from '../../src/server/create-app.ts';
import { listOperations } from '../../src/spec/operations.ts';
import { ROOT } from '../built-cli.ts';
import { spec, validator } from '../helpers.ts';

describe('runtimeMock', () => {
  it('takes seed, counts and key from variables, flags first', () => {
    const mock = runtimeMock(spec, { TEMPMON_SEED: '9', TEMPMON_ALERTS: 40, TEMPMON_API_KEY: 'from-env' }, ['--seed', '3']);
    expect(mock.options.dataset).toEqual({ seed: 3, counts: { alerts: 40 } });
    expect(mock.options.apiKeys).toEqual(['from-env']);
    const [data, key, tryIt] = mock.banner('http://127.0.0.1:4010');
    // Then any other listing of the spec, at its default count.
    expect(data).toMatch(/^ {2}seed 3: 40 alerts, \d+ sensors(, \d+ \w+)*$/);
    expect(key).toBe('  key: the one in $TEMPMON_API_KEY (not printed)');
    expect(tryIt).toBe(`  try: curl -H "x-api-key: $TEMPMON_API_KEY" 'http://127.0.0.1:4010/alert?pageSize=2'`);
    expect(mock.banner('u').join('\n')).not.toContain('from-env');
    expect(runtimeMock(spec, {}, ['--api-key', 'a', '--api-key=b']).options.apiKeys).toEqual(['a', 'b']);
    expect(runtimeMock(spec, {}).banner('u')[1]).toBe(`  key: ${DEFAULT_API_KEY}`);
  });

  it('refuses what tempmon serve refuses, and counts past a runtime bound', () => {
    expect(() => runtimeMock(spec, { TEMPMON_SEED: '-1' })).toThrow(RuntimeOptionError);
    expect(() => runtimeMock(spec, { TEMPMON_API_KEY: ' ' })).toThrow(/set but empty/);
    expect(() => runtimeMock(spec, { TEMPMON_SENSORS: '50001' }, [], 50_000)).toThrow(/sensors must be an integer from 0 to 50000/);
  });
});

/** What `tempmon serve` answers to `args` (each test gives it options it refuses before listening). */
async function serveRefusal(args: readonly string[]): Promise<string> {
  const served = await serveCommand(['--port', '0', '--quiet', ...args], () => undefined).catch((error: Error) => error);
  if (!(served instanceof Error)) {
    await served?.close();
    throw new Error(`tempmon serve accepted ${args.join(' ')}`);
  }
  return served.message;
}

/** Flags as a command line: `--name=value` each. */
const asArgs = (flags: Record<string, string>) => Object.entries(flags).map(([name, value]) => `--${name}=${value}`);

/** What runtimeMock throws for `flags` and `env`, with a data loader. */
function runtimeRefusal(flags: Record<string, string>, env: Record<string, string> = {}): string {
  try {
    runtimeMock(spec, env, asArgs(flags), undefined, loadData);
  } catch (error) {
    expect(error).toBeInstanceOf(RuntimeOptionError);
    return (error as Error).message;
  }
  throw new Error(`runtimeMock accepted ${JSON.stringify({ flags, env })}`);
}

describe('runtimeMock: simulated conditions and data files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tempmon-runtime-options-'));
  const file = join(dir, 'data.json');
  const records = generateDataset(spec.document, { seed: 5, counts: { alerts: 3, sensors: 2 } });
  writeFileSync(file, JSON.stringify(records));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes --latency, --error-rate and --rate-limit, or their variables, flags first', () => {
    const env = { TEMPMON_LATENCY: '5', TEMPMON_ERROR_RATE: '0.25', TEMPMON_RATE_LIMIT: '9' };
    expect(runtimeMock(spec, env).options.scenarios).toEqual({ latency: { min: 5, max: 5 }, errorRate: 0.25, rateLimit: 9 });
    const flagged = runtimeMock(spec, env, asArgs({ latency: '100-800', 'error-rate': '1', 'rate-limit': '2' }));
    expect(flagged.options.scenarios).toEqual({ latency: { min: 100, max: 800 }, errorRate: 1, rateLimit: 2 });
    expect(flagged.banner('u')).toContain('  simulated: latency 100-800 ms, error rate 1, rate limit 2/s');
    expect(runtimeMock(spec, {}).options.scenarios).toEqual({});
    expect(
      runtimeMock(spec, {})
        .banner('u')
        .some((line) => line.includes('simulated')),
    ).toBe(false);
    const parsed = parseServeArgs(
      spec.document,
      ['--latency=20', '--error-rate', '0.5', '--rate-limit', '3', '--data', file],
      {},
      true,
      (m) => new Error(m),
    );
    expect(parsed).toEqual({ latency: '20', 'error-rate': '0.5', 'rate-limit': '3', data: file });
  });

  it('refuses bad conditions, seeds and counts with the words of tempmon serve, from a flag or a variable', async () => {
    for (const [flag, value] of [
      ['seed', '1.5'],
      ['seed', '4294967296'],
      ['alerts', 'many'],
      ['sensors', '-1'],
      ['latency', '900-100'],
      ['latency', 'slow'],
      ['latency', '70000'],
      ['error-rate', '1.5'],
      ['error-rate', '-0.1'],
      ['rate-limit', '0'],
      ['rate-limit', '2.5'],
      ['rate-limit', '1000001'],
    ] as const) {
      const expected = await serveRefusal([`--${flag}=${value}`]);
      expect(expected).toContain(`--${flag} must be`);
      expect(runtimeRefusal({ [flag]: value })).toBe(expected);
      expect(runtimeRefusal({}, { [`TEMPMON_${flag.toUpperCase().replace('-', '_')}`]: value })).toBe(expected);
    }
  });

  it('refuses an empty key with the words of tempmon serve, from a flag or a variable', async () => {
    expect(runtimeRefusal({ 'api-key': '' })).toBe(await serveRefusal(['--api-key=']));
    const emptyKey = await (async () => {
      process.env.TEMPMON_API_KEY = ' ';
      try {
        return await serveRefusal([]);
      } finally {
        delete process.env.TEMPMON_API_KEY;
      }
    })();
    expect(runtimeRefusal({}, { TEMPMON_API_KEY: ' ' })).toBe(emptyKey);
  });

  it('serves the records of --data or TEMPMON_DATA, read by the loader', () => {
    const mock = runtimeMock(spec, { TEMPMON_DATA: join(dir, 'absent.json') }, ['--data', file], undefined, loadData);
    expect(mock.options.data).toEqual(records);
    expect(mock.options.dataset).toBeUndefined();
    expect(mock.banner('u')[0]).toMatch(new RegExp(`^ {2}data: ${file} \\(3 alerts, 2 sensors(, \\d+ \\w+)*\\)$`));
    expect(runtimeMock(spec, { TEMPMON_DATA: file }, [], undefined, loadData).options.data).toEqual(records);
    expect(() => runtimeMock(spec, { TEMPMON_DATA: join(dir, 'absent.json') }, [], undefined, loadData)).toThrow(/absent\.json/);
  });

  it('refuses --data with --seed or counts as tempmon serve does, and without a loader (a Worker)', async () => {
    const expected = await serveRefusal(['--data', file, '--seed', '2']);
    expect(expected).toMatch(/--data cannot be combined/);
    expect(runtimeRefusal({ data: file, seed: '2' })).toBe(expected);
    expect(runtimeRefusal({ data: file }, { TEMPMON_ALERTS: '4' })).toBe(expected);
    expect(runtimeRefusal({}, { TEMPMON_DATA: file, TEMPMON_SEED: '1' })).toBe(expected);
    for (const given of [
      { flags: { data: file }, env: {} },
      { flags: {}, env: { TEMPMON_DATA: file, TEMPMON_SEED: '1' } },
    ]) {
      expect(() => runtimeMock(spec, given.env, asArgs(given.flags as Record<string, string>))).toThrow(
        new RuntimeOptionError('data files (TEMPMON_DATA, --data) need Bun, Deno or Node: a Worker has no file system'),
      );
    }
  });
});

describe('the runtime entries read flags as tempmon serve does', () => {
  it('reads --name value and --name=value, with the defaults, and refuses in the same words', async () => {
    expect(runtimeMock(spec, {})).toMatchObject({ port: 4010, host: '127.0.0.1' });
    const parsed = runtimeMock(spec, {}, ['--port=0', '--alerts', '5', '--api-key', 'k1', '--api-key=k2']);
    expect(parsed).toMatchObject({ port: 0, host: '127.0.0.1', values: { port: '0', alerts: '5', 'api-key': ['k1', 'k2'] } });
    // --watch is the CLI's alone: unknown to a runtime entry.
    expect(runtimeRefusal({ watch: 'x' })).toBe('unknown option --watch (see tempmon serve --help)');
    for (const args of [['--seed'], ['--seed', '--alerts', '5'], ['--nope'], ['stray'], ['--port', '99999']]) {
      let message = '';
      try {
        runtimeMock(spec, {}, args);
      } catch (error) {
        expect(error).toBeInstanceOf(RuntimeOptionError);
        message = (error as Error).message;
      }
      expect(message, args.join(' ')).toBe(await serveRefusal(args));
    }
  });
});

describe('precompiledValidator', () => {
  it('gives the issues Ajv gives at run time, for every query parameter', async () => {
    const path = `${ROOT}dist/runtimes/query-validators.js`;
    expect(readFileSync(path, 'utf8')).toContain('QUERY_VALIDATORS');
    const { QUERY_VALIDATORS } = (await import(path)) as typeof import('../../src/runtimes/query-validators.js');
    const compiled = precompiledValidator(QUERY_VALIDATORS);
    const values = [0, -1, 1, 1.5, 100, 101, 1e9, '', 'x', null, true];
    for (const operation of listOperations(spec.document)) {
      for (const { schema } of operation.queryParameters) {
        for (const value of values) expect(compiled.check(schema, value)).toEqual(validator.check(schema, value));
      }
    }
  });
});
