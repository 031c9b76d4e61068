// What `tempmon serve` and `tempmon proxy` print on start, in-process: the URL to open, the key (never
// one the user chose), and the key from TEMPMON_API_KEY.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isUnspecified, listeningAddresses } from '../../src/cli/listen-address.ts';
import { proxyCommand } from '../../src/cli/proxy.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { apiKeysOption as keysOf } from '../../src/options/option-parsers.ts';
import { describeKeys } from '../../src/options/serve-options.ts';

const running: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Starts serve (or proxy) in this process on a free port; resolves with its URL and printed lines. */
async function start(
  args: string[],
  command: (
    args: readonly string[],
    log: (line: string) => void,
  ) => Promise<{ url: string; close: () => Promise<void> } | undefined> = serveCommand,
) {
  const lines: string[] = [];
  const server = await command(['--port', '0', '--quiet', ...args], (line) => lines.push(line));
  running.push(server!);
  return { url: server!.url, lines, text: lines.join('\n') };
}

describe('the start banner', () => {
  it('on 0.0.0.0 prints a URL that opens, and says it listens on all interfaces', async () => {
    const { url, lines } = await start(['--host', '0.0.0.0']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[0]).toBe(`tempmon mock listening on ${url}`);
    expect(lines[1]).toMatch(/^ {2}on all interfaces \(0\.0\.0\.0\)/);
    expect(lines.join('\n')).not.toContain('0.0.0.0:');
    expect(lines.find((l) => l.includes('try:'))).toContain(`'${url}/alert?pageSize=2'`);
    expect((await fetch(`${url}/alert`, { headers: { 'x-api-key': 'tempmon-dev-key' } })).status).toBe(200);
  });

  it('names the simulated conditions it was started with, and says nothing of them without', async () => {
    const { text } = await start(['--latency', '100-800', '--error-rate', '0.5', '--rate-limit', '2']);
    expect(text).toContain('  simulated: latency 100-800 ms, error rate 0.5, rate limit 2/s');
    expect((await start([])).text).not.toContain('simulated');
  });

  it('says whether its dataset is large (main then keeps the heap near use; see main.ts)', async () => {
    const sizes = [
      ['--alerts', '40000'],
      ['--alerts', '60000'],
    ];
    const large = await Promise.all(
      sizes.map(async (args) => {
        const server = await serveCommand(['--port', '0', '--quiet', ...args], () => undefined);
        running.push(server!);
        return server!.large;
      }),
    );
    expect(large).toEqual([false, true]);
  });

  it('the proxy too', async () => {
    const { url, lines } = await start(['--host', '0.0.0.0', '--target', 'http://127.0.0.1:9'], proxyCommand);
    expect(lines[0]).toMatch(/^tempmon proxy listening on http:\/\/127\.0\.0\.1:\d+, forwarding to http:\/\/127\.0\.0\.1:9$/);
    expect(lines[1]).toMatch(/^ {2}on all interfaces \(0\.0\.0\.0\)/);
    expect(lines[2]).toBe(`  violations: ${url}/__tempmon/violations`);
  });

  it("names this machine's other addresses, never the unspecified one", () => {
    expect(isUnspecified('0.0.0.0')).toBe(true);
    expect(isUnspecified('::')).toBe(true);
    expect(isUnspecified('0:0::0')).toBe(true);
    expect(isUnspecified('127.0.0.1')).toBe(false);
    expect(isUnspecified('localhost')).toBe(false);
    expect(listeningAddresses('http://127.0.0.1:4010', '127.0.0.1')).toEqual({ url: 'http://127.0.0.1:4010' });
    expect(listeningAddresses('http://[::]:4010', '::').url).toBe('http://[::1]:4010');
    const { note } = listeningAddresses('http://0.0.0.0:4010', '0.0.0.0');
    for (const other of /from other machines: (.*)$/.exec(note!)?.[1]?.split(', ') ?? []) {
      expect(other).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:4010$/);
      expect(other).not.toMatch(/\/\/(127\.|0\.0\.0\.0)/);
    }
  });

  it('with a key given on the command line: not printed, and the curl line expands a variable', async () => {
    const { text } = await start(['--api-key', 'custom-secret-1']);
    expect(text).not.toContain('custom-secret-1');
    expect(text).toContain('key: the key given with --api-key (not printed');
    expect(text).toMatch(/try: curl -H "x-api-key: \$TEMPMON_API_KEY" 'http:/);
    expect(text).not.toContain("'x-api-key: $");
  });

  it('takes the key from TEMPMON_API_KEY, never printing it; --api-key wins over it', async () => {
    vi.stubEnv('TEMPMON_API_KEY', 'env-secret-key-9');
    const { url, text } = await start([]);
    expect(text).not.toContain('env-secret-key-9');
    expect(text).toContain('key: the one in $TEMPMON_API_KEY (not printed)');
    expect(text).toContain('try: curl -H "x-api-key: $TEMPMON_API_KEY"');
    expect((await fetch(`${url}/alert`, { headers: { 'x-api-key': 'env-secret-key-9' } })).status).toBe(200);
    expect((await fetch(`${url}/alert`, { headers: { 'x-api-key': 'tempmon-dev-key' } })).status).toBe(401);

    const flagged = await start(['--api-key', 'flag-key']);
    expect((await fetch(`${flagged.url}/alert`, { headers: { 'x-api-key': 'flag-key' } })).status).toBe(200);
    expect((await fetch(`${flagged.url}/alert`, { headers: { 'x-api-key': 'env-secret-key-9' } })).status).toBe(401);
  });

  it('prints the dev key literally only when it is the key', () => {
    const apiKeysOption = (flags: readonly string[] | undefined, environment: string | undefined) => {
      const keys = keysOf(flags, environment);
      return { ...keys, describe: describeKeys(keys) };
    };
    expect(apiKeysOption(undefined, undefined)).toMatchObject({ keys: ['tempmon-dev-key'], from: 'default', describe: 'tempmon-dev-key' });
    expect(apiKeysOption(undefined, 'tempmon-dev-key')).toMatchObject({ from: 'default' });
    expect(apiKeysOption(['tempmon-dev-key', 'other'], undefined)).toMatchObject({
      from: 'flags',
      describe: expect.stringContaining('2 keys'),
    });
    expect(() => apiKeysOption([' '], undefined)).toThrow('--api-key must not be empty');
    expect(() => apiKeysOption(undefined, '')).toThrow(/^TEMPMON_API_KEY is set but empty/);
    expect(apiKeysOption(['k'], '')).toMatchObject({ keys: ['k'] });
  });
});
