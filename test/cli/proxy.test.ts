import { describe, expect, it } from 'vitest';
import { run, startServe } from './cli-helpers.ts';

describe('tempmon proxy (real HTTP)', () => {
  it('forwards to a running mock unchanged and lists no violations', async () => {
    const mock = await startServe(['--quiet', '--api-key', 'proxy-secret-key-1']);
    const proxy = await startServe(['--target', mock.url], 'proxy');
    const headers = { 'x-api-key': 'proxy-secret-key-1' };
    const direct = await fetch(`${mock.url}/alert?pageSize=4`, { headers });
    const through = await fetch(`${proxy.url}/alert?pageSize=4`, { headers });
    expect(through.status).toBe(200);
    expect(await through.text()).toBe(await direct.text());
    expect(through.headers.get('access-control-allow-origin')).toBe('*');
    expect(await (await fetch(`${proxy.url}/__tempmon/violations`)).json()).toEqual({ count: 0, violations: [] });
    await new Promise((r) => setTimeout(r, 100));
    expect(proxy.output()).toMatch(/GET \/alert\?pageSize=4 200/);
    expect(proxy.output()).not.toContain('proxy-secret-key-1');
  });

  it.each([
    [['proxy'], '--target URL is required'],
    [['proxy', '--target', 'nope'], '--target must be an http(s) URL'],
    [['proxy', '--target', 'http://127.0.0.1:9', '--timeout', 'x'], '--timeout must be an integer'],
  ])('%j cannot run: one line, exit code 2', (args, message) => {
    const result = run(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
