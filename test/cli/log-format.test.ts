// The request log of `tempmon serve`: compact lines by default, pino JSON with --log-format json, over real HTTP.
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/cli-error.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { KEY } from '../helpers.ts';

async function logged(args: string[], paths: string[]): Promise<string[]> {
  const lines: string[] = [];
  const server = await serveCommand(['--port', '0', '--alerts', '5', '--sensors', '5', '--api-key', KEY, ...args], (line) =>
    lines.push(line),
  );
  try {
    for (const path of paths) await (await fetch(`${server!.url}${path}`, { headers: { 'x-api-key': KEY } })).text();
    // A line is written once its answer is sent, which may be after the client has read it.
    await expect.poll(() => requestLines(lines).length).toBeGreaterThanOrEqual(paths.length);
  } finally {
    await server!.close();
  }
  return requestLines(lines);
}

const requestLines = (lines: string[]) => lines.filter((line) => !line.startsWith('tempmon mock') && !line.startsWith('  '));

describe('the request log', () => {
  it('writes one compact line per request by default, replays included', async () => {
    // The response cache stores an answer the second time it is asked for and replays it from the third.
    const lines = await logged([], ['/alert?pageSize=2', '/alert?pageSize=2', '/alert?pageSize=2', '/nope']);
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(0, 2)) expect(line).toMatch(/^GET \/alert\?pageSize=2 200 \d+\.\dms$/);
    expect(lines[2]).toBe('GET /alert?pageSize=2 200 replayed');
    expect(lines[3]).toMatch(/^GET \/nope 404 /);
  });

  it('hides a key sent in the URL in replayed requests too', async () => {
    const path = `/alert?pageSize=1&x-api-key=${KEY}`;
    const lines = await logged([], [path, path, path, path]);
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line).not.toContain(KEY);
      expect(line).toMatch(/^GET \/alert\?pageSize=1&x-api-key=\S+ 200 /);
    }
  });

  it('writes pino JSON objects with --log-format json, replays marked', async () => {
    const lines = await logged(['--log-format', 'json'], ['/sensor?page=2', '/sensor?page=2', '/sensor?page=2']);
    expect(lines).toHaveLength(3);
    const [first, , third] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ level: 30, method: 'GET', url: '/sensor?page=2', status: 200 });
    expect(typeof first!.ms).toBe('number');
    expect(Date.parse(String(first!.time))).not.toBeNaN();
    // The third is replayed from the response cache: marked so, with no time.
    expect(third).toMatchObject({ level: 30, method: 'GET', url: '/sensor?page=2', status: 200, replayed: true });
    expect(third).not.toHaveProperty('ms');
  });

  it('refuses an unknown format with one line', async () => {
    await expect(serveCommand(['--port', '0', '--log-format', 'pretty'], () => undefined)).rejects.toThrow(
      new CliError('--log-format must be one of compact, json, got "pretty"'),
    );
  });
});
