// One mock, every runtime (issue 13): workerd (wrangler dev), Bun and Deno, each started from the
// project's node_modules with its npm script, answer as `tempmon serve` on Node does: same status, the
// headers that matter and the same body bytes, for pages, searches, bad parameters, missing keys and
// forced states; and the kit's own contract run finds each conformant (--strict).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN, ROOT } from '../built-cli.ts';

const KEY = 'runtimes-test-key';
const DATA = ['--seed', '7', '--alerts', '1200', '--sensors', '300'];
/** What is compared besides status and body; Link up to its origin. */
const HEADERS = [
  'content-type',
  'x-total-count',
  'link',
  'etag',
  'preference-applied',
  'retry-after',
  'allow',
  'www-authenticate',
  'access-control-allow-origin',
  'access-control-expose-headers',
];

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

interface Started {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
}

/** Starts a command in its own process group and waits for its "listening on URL" line. */
async function start(command: string, args: readonly string[]): Promise<Started> {
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TEMPMON_API_KEY: KEY, NO_COLOR: '1' },
  });
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start in 90 s:\n${text}`)), 90_000);
    const read = (chunk: Buffer) => {
      text += chunk;
      const match = /tempmon mock.* listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}):\n${text}`));
    });
  });
  return { url, child, output: () => text };
}

const stop = (started: Started | undefined) => {
  if (started?.child.pid !== undefined && started.child.exitCode === null) {
    try {
      process.kill(-started.child.pid, 'SIGTERM');
    } catch {}
  }
};

const npm = (script: string, port: number) => start('npm', ['run', '-s', script, '--', '--port', String(port), ...DATA]);

const RUNTIMES = {
  workerd: (port: number) => npm('serve:workerd', port),
  bun: (port: number) => npm('serve:bun', port),
  deno: (port: number) => npm('serve:deno', port),
} as const;

/** The requests compared: path and query, and the headers sent (the key unless said otherwise). */
const REQUESTS: readonly { readonly path: string; readonly headers?: Record<string, string> }[] = [
  { path: '/alert' },
  { path: '/alert?pageSize=7&page=3' },
  { path: '/alert?pageSize=100&page=12' },
  { path: '/alert?pageSize=100&page=13' },
  { path: '/sensor?pageSize=50&page=2' },
  { path: '/alert?search=fr' },
  { path: '/alert?search=KNRD&pageSize=3&page=2' },
  { path: '/sensor?search=AMS' },
  { path: '/alert?search=%C3%A9t%C3%A9' },
  { path: '/alert?search=zzqxjvv' },
  { path: '/alert?page=0' },
  { path: '/alert?pageSize=abc' },
  { path: '/alert?pageSize=101&page=-1' },
  { path: '/alert?page=1&page=2' },
  { path: '/alert?unknown=1&pageSize=2' },
  { path: '/alert', headers: {} },
  { path: '/alert', headers: { 'x-api-key': 'wrong-key' } },
  { path: '/alert', headers: { 'x-api-key': KEY, prefer: 'code=503' } },
  { path: '/alert?__code=500', headers: {} },
  { path: '/sensor?__code=429' },
  { path: '/alert', headers: { 'x-api-key': KEY, prefer: 'example=empty' } },
  { path: '/alert?pageSize=2', headers: { 'x-api-key': KEY, 'if-none-match': '"no-such-etag"' } },
  { path: '/nothing-here' },
  { path: '/healthz' },
  { path: '/readyz' },
  { path: '/openapi.json' },
  { path: '/openapi.yaml' },
];

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | null>;
  readonly body: string;
}

async function answer(origin: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer()).toString('base64');
  return {
    status: response.status,
    headers: Object.fromEntries(HEADERS.map((name) => [name, response.headers.get(name)?.replaceAll(origin, 'ORIGIN') ?? null])),
    body,
  };
}

let node: Started | undefined;
const started: Partial<Record<keyof typeof RUNTIMES, Started>> = {};

beforeAll(async () => {
  node = await start(process.execPath, [MAIN, 'serve', '--port', String(await freePort()), '--quiet', ...DATA]);
}, 120_000);

afterAll(() => {
  stop(node);
  for (const runtime of Object.values(started)) stop(runtime);
});

describe.each(Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[])('%s', (name) => {
  beforeAll(async () => {
    started[name] = await RUNTIMES[name](await freePort());
  }, 120_000);
  afterAll(() => stop(started[name]));

  it('answers every request as Node does: status, headers that matter, body bytes', async () => {
    const runtime = started[name]!;
    const seen: Answer[] = [];
    for (const { path, headers = { 'x-api-key': KEY } } of REQUESTS) {
      const expected = await answer(node!.url, path, headers);
      const actual = await answer(runtime.url, path, headers);
      expect({ path, ...actual }, `${name} ${path} ${JSON.stringify(headers)}`).toEqual({ path, ...expected });
      seen.push(expected);
    }
    // The requests cover what they claim: pages with counts and links, searches with hits, every refusal.
    for (const status of [200, 400, 401, 404, 500, 503]) expect(seen.map((a) => a.status)).toContain(status);
    expect(seen[0]!.headers['x-total-count']).toBe('1200');
    expect(seen[0]!.headers.link).toContain('<ORIGIN/alert?');
    const hits = Number(seen[5]!.headers['x-total-count']);
    expect(hits).toBeGreaterThan(0);
    expect(hits).toBeLessThan(1200);
    expect(seen[9]!.headers['x-total-count']).toBe('0');
    // An ETag from one runtime is good on the other: 304 on both.
    const etag = (await fetch(`${runtime.url}/alert?pageSize=3`, { headers: { 'x-api-key': KEY } })).headers.get('etag')!;
    for (const origin of [node!.url, runtime.url]) {
      const response = await fetch(`${origin}/alert?pageSize=3`, { headers: { 'x-api-key': KEY, 'if-none-match': etag } });
      expect(response.status).toBe(304);
    }
  });

  it('is conformant to the contract, by the kit (tempmon contract --strict)', () => {
    const run = spawnSync(process.execPath, [MAIN, 'contract', '--target', started[name]!.url, '--strict', '--seed', '1'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, TEMPMON_API_KEY: KEY, NO_COLOR: '1' },
      timeout: 110_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  });
});
