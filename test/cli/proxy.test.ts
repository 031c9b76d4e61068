import { describe, expect, it } from 'vitest';
import { proxyCommand } from '../../src/cli/proxy.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { startInProcess, startServe, usageError } from './cli-helpers.ts';

describe('tempmon proxy (real HTTP)', () => {
  it('the built CLI forwards to a running mock unchanged, lists no violations, and logs without the key', async () => {
    const mock = await startInProcess(serveCommand, ['--quiet', '--api-key', 'proxy-secret-key-1']);
    const proxy = await startServe(['--target', mock.url], 'proxy');
    const headers = { 'x-api-key': 'proxy-secret-key-1' };
    const direct = await fetch(`${mock.url}/alert?pageSize=4`, { headers });
    const through = await fetch(`${proxy.url}/alert?pageSize=4`, { headers });
    expect(through.status).toBe(200);
    expect(await through.text()).toBe(await direct.text());
    expect(through.headers.get('access-control-allow-origin')).toBe('*');
    expect(await (await fetch(`${proxy.url}/__tempmon/violations`)).json()).toEqual({ count: 0, violations: [] });
    await proxy.waitFor(/GET \/alert\?pageSize=4 200/);
    expect(proxy.output()).not.toContain('proxy-secret-key-1');
    expect(await proxy.stop()).toBe(0);
  });

  it.each([
    [[], '--target URL is required'],
    [['--target', 'nope'], '--target must be an http(s) URL'],
    [['--target', 'http://127.0.0.1:9', '--timeout', 'x'], '--timeout must be an integer'],
  ])('proxy %j cannot run: one line', async (args, message) => {
    const error = await usageError(() => proxyCommand(['--port', '0', ...args], () => undefined));
    expect(error.message).toContain(message);
  });
});
