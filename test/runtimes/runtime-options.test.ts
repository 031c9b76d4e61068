// The options every runtime entry shares (src/runtimes/runtime-options.ts), and the query validators a
// Worker gets compiled ahead of time: they must word a 400 as Ajv does at run time on Node.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { precompiledValidator } from '../../src/runtimes/precompiled-validator.ts';
import { RuntimeOptionError, runtimeMock, serveFlags } from '../../src/runtimes/runtime-options.ts';
import { DEFAULT_API_KEY } from '../../src/server/create-app.ts';
import { listOperations } from '../../src/spec/operations.ts';
import { ROOT } from '../built-cli.ts';
import { spec, validator } from '../helpers.ts';

describe('runtimeMock', () => {
  it('takes seed, counts and key from variables, flags first', () => {
    const mock = runtimeMock(spec, { TEMPMON_SEED: '9', TEMPMON_ALERTS: 40, TEMPMON_API_KEY: 'from-env' }, { seed: '3' });
    expect(mock.options.dataset).toEqual({ seed: 3, counts: { alerts: 40 } });
    expect(mock.options.apiKeys).toEqual(['from-env']);
    expect(mock.data).toMatch(/^seed 3: 40 alerts, \d+ sensors$/);
    expect(mock.key).not.toContain('from-env');
    expect(runtimeMock(spec, {}, { 'api-key': ['a', 'b'] }).options.apiKeys).toEqual(['a', 'b']);
    expect(runtimeMock(spec, {}).key).toBe(DEFAULT_API_KEY);
  });

  it('refuses what tempmon serve refuses, and counts past a runtime bound', () => {
    expect(() => runtimeMock(spec, { TEMPMON_SEED: '-1' })).toThrow(RuntimeOptionError);
    expect(() => runtimeMock(spec, { TEMPMON_API_KEY: ' ' })).toThrow(/set but empty/);
    expect(() => runtimeMock(spec, { TEMPMON_SENSORS: '50001' }, {}, 50_000)).toThrow(/sensors must be an integer from 0 to 50000/);
  });
});

describe('serveFlags', () => {
  it('reads --name value and --name=value, with defaults', () => {
    expect(serveFlags([], spec.document)).toEqual({ port: 4010, host: '127.0.0.1', flags: {} });
    const parsed = serveFlags(['--port=0', '--alerts', '5', '--api-key', 'k1', '--api-key=k2'], spec.document);
    expect(parsed).toEqual({ port: 0, host: '127.0.0.1', flags: { port: '0', alerts: '5', 'api-key': ['k1', 'k2'] } });
    expect(() => serveFlags(['--watch'], spec.document)).toThrow(/unknown option --watch/);
    expect(() => serveFlags(['--seed'], spec.document)).toThrow(/needs a value/);
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
