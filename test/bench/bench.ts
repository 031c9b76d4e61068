// npm run bench: the mock against a bare node:http server returning the same bytes, loaded by the
// same bounded generator in the same run, so the ratios hold on a shared, noisy machine. Servers are
// pinned to core 0 and the load generator to core 1 when taskset is available. A script, not a test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';

const ROOT = new URL('../..', import.meta.url).pathname;
const OUT = join(ROOT, '.tmp');
const KEY = 'tempmon-dev-key';
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const pinned = existsSync('/usr/bin/taskset') && !process.env.BENCH_NO_PIN;

// Re-run this script on core 1 so that the load generator never competes with the servers.
if (pinned && !process.env.BENCH_PINNED) {
  const self = spawnSync('taskset', ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  process.exit(self.status ?? 1);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** Starts a server process on core 0 and waits until `ready(url)` answers. */
async function start(command: string[], url: string): Promise<{ child: ChildProcess; startupMs: number }> {
  const started = performance.now();
  const argv = pinned ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', cwd: ROOT });
  children.push(child);
  for (let i = 0; i < 3000; i += 1) {
    try {
      const response = await fetch(url, { headers: { 'x-api-key': KEY } });
      if (response.status === 200) return { child, startupMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${command.join(' ')} did not answer ${url}`);
}

/** Peak resident memory of a process, in MB. */
const peakRss = (child: ChildProcess) =>
  Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

interface Load {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** Loads `base` for DURATION seconds; `path()` gives each request's path. */
async function load(base: string, path: () => string): Promise<Load> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { 'x-api-key': KEY },
    requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }],
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Unique search terms: substrings of real values, so most find a record or a few. */
function freshTerms(records: Record<string, unknown>[], count: number): string[] {
  const values = records.flatMap((r) =>
    Object.values(r)
      .flat()
      .filter((v): v is string => typeof v === 'string'),
  );
  const terms = new Set<string>();
  let state = 12345;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  for (let tries = 0; terms.size < count && tries < count * 20; tries += 1) {
    const value = values[next() % values.length]!;
    const length = 4 + (next() % 4);
    const at = next() % Math.max(1, value.length - length);
    terms.add(value.slice(at, at + length).toLowerCase());
  }
  return [...terms];
}

mkdirSync(OUT, { recursive: true });
const rows: { scenario: string; server: string; rps: number; p50: number; p99: number; rss: number; ratio?: number; errors: number }[] = [];

const mockPort = await freePort();
const mockUrl = `http://127.0.0.1:${mockPort}`;
const startups: number[] = [];
for (let i = 0; i < 5; i += 1) {
  const port = await freePort();
  const { child, startupMs } = await start(
    [process.execPath, 'dist/cli/main.js', 'serve', '--quiet', '--port', String(port)],
    `http://127.0.0.1:${port}/alert`,
  );
  startups.push(startupMs);
  child.kill();
}
startups.sort((a, b) => a - b);

const mock = await start(
  [process.execPath, 'dist/cli/main.js', 'serve', '--quiet', '--port', String(mockPort), '--alerts', '10000'],
  `${mockUrl}/alert`,
);
const sample: Record<string, unknown>[] = [];
for (const page of [3, 17, 42, 77]) {
  sample.push(
    ...((await (await fetch(`${mockUrl}/alert?pageSize=100&page=${page}`, { headers: { 'x-api-key': KEY } })).json()) as Record<
      string,
      unknown
    >[]),
  );
}
const terms = freshTerms(sample, 100_000);
let termIndex = 0;

const scenarios: { name: string; path: () => string; bytesPath: string }[] = [
  { name: 'default page', path: () => '/alert', bytesPath: '/alert' },
  { name: 'pageSize=100', path: () => '/alert?pageSize=100', bytesPath: '/alert?pageSize=100' },
  {
    name: 'search 10k, fresh term',
    path: () => `/alert?search=${encodeURIComponent(terms[termIndex++ % terms.length]!)}`,
    bytesPath: `/alert?search=${encodeURIComponent(terms[0]!)}`,
  },
  { name: 'search 10k, repeated', path: () => '/alert?search=ph28-1', bytesPath: '/alert?search=ph28-1' },
];

for (const scenario of scenarios) {
  const bytes = Buffer.from(await (await fetch(`${mockUrl}${scenario.bytesPath}`, { headers: { 'x-api-key': KEY } })).arrayBuffer());
  const file = join(OUT, 'bench-body.json');
  writeFileSync(file, bytes);
  const barePort = await freePort();
  const bare = await start(
    [process.execPath, join(ROOT, 'test/bench/bare-server.mjs'), file, String(barePort)],
    `http://127.0.0.1:${barePort}/`,
  );
  const baseline = await load(`http://127.0.0.1:${barePort}`, scenario.path);
  const measured = await load(mockUrl, scenario.path);
  rows.push({ scenario: scenario.name, server: 'bare node:http', ...baseline, rss: peakRss(bare.child) });
  rows.push({ scenario: scenario.name, server: 'tempmon mock', ...measured, rss: peakRss(mock.child), ratio: measured.rps / baseline.rps });
  bare.child.kill();
}

const prismCli = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
if (existsSync(prismCli)) {
  const port = await freePort();
  const prism = await start(
    [process.execPath, prismCli, 'mock', '-h', '127.0.0.1', '-p', String(port), 'spec/openapi.yaml'],
    `http://127.0.0.1:${port}/alert`,
  );
  const measured = await load(`http://127.0.0.1:${port}`, () => '/alert');
  const ours = rows.find((r) => r.scenario === 'default page' && r.server === 'tempmon mock')!;
  rows.push({
    scenario: 'default page',
    server: 'prism mock (static)',
    ...measured,
    rss: peakRss(prism.child),
    ratio: ours.rps / measured.rps,
  });
  prism.child.kill();
}

// Validating proxies in front of the same mock, for a 20-record page.
const proxyPort = await freePort();
const proxy = await start(
  [process.execPath, 'dist/cli/main.js', 'proxy', '--quiet', '--port', String(proxyPort), '--target', mockUrl],
  `http://127.0.0.1:${proxyPort}/alert`,
);
const viaProxy = await load(`http://127.0.0.1:${proxyPort}`, () => '/alert');
rows.push({ scenario: 'proxy, default page', server: 'tempmon proxy', ...viaProxy, rss: peakRss(proxy.child) });
proxy.child.kill();
if (existsSync(prismCli)) {
  const port = await freePort();
  const prism = await start(
    [process.execPath, prismCli, 'proxy', '-h', '127.0.0.1', '-p', String(port), 'spec/openapi.yaml', mockUrl],
    `http://127.0.0.1:${port}/alert`,
  );
  const measured = await load(`http://127.0.0.1:${port}`, () => '/alert');
  rows.push({
    scenario: 'proxy, default page',
    server: 'prism proxy',
    ...measured,
    rss: peakRss(prism.child),
    ratio: viaProxy.rps / measured.rps,
  });
  prism.child.kill();
}
mock.child.kill();

const pad = (text: string | number, n: number) => String(text).padEnd(n);
console.log(
  `\ntempmon-kit bench: ${CONNECTIONS} connections, ${DURATION} s per run, ${pinned ? 'servers on core 0, load on core 1' : 'not pinned'}\n`,
);
console.log(`${pad('scenario', 24)}${pad('server', 22)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('RSS MB', 8)}ratio`);
for (const r of rows) {
  const ratio =
    r.ratio === undefined
      ? ''
      : r.server === 'prism proxy'
        ? `ours/prism ${r.ratio.toFixed(1)}x`
        : r.server.startsWith('prism')
          ? `mock/prism ${r.ratio.toFixed(1)}x`
          : `mock/bare ${r.ratio.toFixed(2)}x`;
  console.log(
    `${pad(r.scenario, 24)}${pad(r.server, 22)}${pad(r.rps, 9)}${pad(r.p50, 8)}${pad(r.p99, 8)}${pad(r.rss, 8)}${ratio}${r.errors ? ` (${r.errors} errors)` : ''}`,
  );
}
const startup = { medianMs: Math.round(startups[2]!), runsMs: startups.map(Math.round) };
console.log(`\nstart-up to the first 200 (default dataset, 5 runs): median ${startup.medianMs} ms (${startup.runsMs.join(', ')})`);
const json = { date: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION, pinned, startup, rows };
writeFileSync(join(OUT, 'bench.json'), `${JSON.stringify(json, null, 2)}\n`);
console.log(`JSON: ${join(OUT, 'bench.json')}`);
