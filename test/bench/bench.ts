// npm run bench: the mock as users run it (`tempmon serve`, request log on, stdout to /dev/null) against a
// bare node:http server sending the same bytes and headers, loaded by wrk (a native generator: one written
// in node is slower than the server and flatters every ratio) in the same run, so the ratios hold on a
// shared, noisy machine. Servers are pinned to core 0 and wrk to core 1. Then a million-record mock,
// unpinned, loaded with random pages from its first second, while its search index builds.
// A script, not a test: BENCH_SECONDS sets each run's length (default 5), BENCH_WARMUP each server's warm-up
// (default 5); BENCH_MILLION=0 skips the million. BENCH_SOAK=1 adds the live soak (live-soak.ts: 10 minutes
// by default, BENCH_SOAK_* size it). BENCH_ONLY=live runs the live page row alone, BENCH_ONLY=soak the soak
// alone, BENCH_ONLY=drift the live drift (live-drift.ts: each kind of the soak's requests costed minute by
// minute in one process); each prints its figures and leaves .tmp/bench.json and the README as they are.
// BENCH_ONLY=million runs the two million-record rows alone and makes docs/performance.md's scale table (theirs alone).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { missingTool } from '../../src/build/runtime-tool.mjs';
import { SCALE_END, SCALE_START, type ScaleRow, TABLE_START, TABLES_DOC, benchTable, scaleTable, withBenchTable } from './bench-table.ts';
import { driftSettings, liveDrift } from './live-drift.ts';
import { liveSoak, soakSettings } from './live-soak.ts';
import { cpuTime, runToEnd, wrkMs } from './processes.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const HERE = join(ROOT, 'test/bench');
const OUT = join(ROOT, '.tmp');
const CLI = join(ROOT, 'dist/cli/main.js');
const KEY = 'tempmon-dev-key';
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/**
 * Each server's warm-up before its rounds (BENCH_WARMUP, default 5 s): the servers are measured as they
 * run for hours, not while V8 compiles them. A fresh mock's first second of fresh searches costs about
 * twice the CPU per request of its fourth (the search path is still being optimized); a 1 s warm-up
 * left the first rounds measuring that.
 */
const WARMUP = Math.max(1, Number(process.env.BENCH_WARMUP ?? 5));
/** Each server's DURATION seconds are cut into ROUNDS turns (BENCH_ROUNDS, default 5) of SLICE seconds. */
const ROUNDS = Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 5)));
const SLICE = Math.max(1, Math.round(DURATION / ROUNDS));
const CONNECTIONS = 50;
const CORES = cpus().length;
const began = performance.now();

/** The full path of an executable named `name` on PATH, if any. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

const taskset = onPath('taskset');
const pinned = taskset !== undefined && CORES >= 2 && !process.env.BENCH_NO_PIN;

/** wrk, found (or, as root with apt and consent, installed); else autocannon, said out loud. */
async function chooseGenerator(): Promise<{ name: 'wrk'; path: string; version: string } | { name: 'autocannon'; note: string }> {
  const why = 'wrk not found';
  if (process.env.BENCH_GENERATOR === 'autocannon')
    return { name: 'autocannon', note: process.env.BENCH_FALLBACK_NOTE ?? 'BENCH_GENERATOR=autocannon' };
  let path = existsSync('/usr/bin/wrk') ? '/usr/bin/wrk' : onPath('wrk');
  const apt = onPath('apt-get');
  if (!path && apt && process.getuid?.() === 0) {
    let install = process.env.BENCH_INSTALL_WRK === '1';
    if (!install && process.stdin.isTTY) {
      const prompt = createInterface({ input: process.stdin, output: process.stdout });
      install = /^y/i.test(await prompt.question('wrk (Debian package) is not installed. Run `apt-get install -y wrk` now? [y/N] '));
      prompt.close();
    }
    if (install) {
      if (spawnSync(apt, ['install', '-y', 'wrk'], { stdio: 'inherit' }).status !== 0) {
        spawnSync(apt, ['update'], { stdio: 'inherit' });
        spawnSync(apt, ['install', '-y', 'wrk'], { stdio: 'inherit' });
      }
      path = existsSync('/usr/bin/wrk') ? '/usr/bin/wrk' : onPath('wrk');
    }
  }
  if (path) {
    const version =
      spawnSync(path, ['-v'], { encoding: 'utf8' })
        .stdout.split('\n')[0]
        ?.replace(/\s+Copyright.*/, '') ?? 'wrk';
    return { name: 'wrk', path, version };
  }
  const how = apt
    ? `install it with \`sudo apt-get install -y wrk\` (or, as root, BENCH_INSTALL_WRK=1 npm run bench)`
    : 'install wrk (https://github.com/wg/wrk) and put it on PATH';
  return { name: 'autocannon', note: `${why}: ${how}` };
}

const generator = await chooseGenerator();
if (generator.name === 'autocannon') {
  console.warn(
    `\n*** ${generator.note}.\n*** Falling back to autocannon, a generator written in node: it is slower than the server and flatters every ratio.\n`,
  );
  // autocannon loads from inside this process: run it on core 1 so it never competes with the servers.
  if (pinned && !process.env.BENCH_PINNED) {
    const self = spawnSync(taskset!, ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_PINNED: '1', BENCH_GENERATOR: 'autocannon', BENCH_FALLBACK_NOTE: generator.note },
    });
    process.exit(self.status ?? 1);
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

/** Where a process may run: core 0 (servers), core 1 (the generator), or any core. */
type Placement = 'server' | 'generator' | 'any';
const placed = (command: string[], placement: Placement) =>
  !pinned || !taskset
    ? command
    : [taskset, '-c', placement === 'server' ? '0' : placement === 'generator' ? '1' : `0-${CORES - 1}`, ...command];

interface Server {
  readonly child: ChildProcess;
  readonly startupMs: number;
  stop(): void;
}

/**
 * Starts a server (stdout to /dev/null, as `tempmon serve > /dev/null` would) and waits until `url`
 * answers 200. Stderr is kept to explain a failure.
 */
async function start(command: string[], url: string, placement: Placement = 'server'): Promise<Server> {
  const started = performance.now();
  const argv = placed(command, placement);
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], cwd: ROOT });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = () => {
    child.kill('SIGKILL');
    children.delete(child);
  };
  for (let i = 0; i < 6000 && child.exitCode === null; i += 1) {
    try {
      const response = await fetch(url, { headers: { 'x-api-key': KEY } });
      await response.arrayBuffer();
      if (response.status === 200) return { child, startupMs: performance.now() - started, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  stop();
  throw new Error(`${command.join(' ')} did not answer ${url}\n${stderr}`);
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
const peakRss = (child: ChildProcess) => {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
};

/** What to request: a fixed path, or a wrk Lua script with its arguments and the same sequence in JS for autocannon. */
interface Target {
  readonly label: string;
  readonly path: string;
  readonly lua?: { readonly file: string; readonly args: (base: string) => readonly string[] };
  /** The next path, for autocannon. */
  readonly next: () => string;
  /** Told how many requests a wrk run sent to a server, so the next run on it goes on from there. */
  readonly sent?: (base: string, requests: number) => void;
}

const fixed = (path: string): Target => ({ label: path, path, next: () => path });

/** The term fresh-search.lua sends as its `n`th request. */
const freshTerm = (n: number) => ((n * 40503) % 1048576).toString(16).padStart(5, '0');

/**
 * A fresh search term per request (see fresh-search.lua): each run on a server starts where its last
 * one ended, so no server is sent a term twice in a bench (up to 2^20 requests each, warm-ups included).
 * Counted per server: a fast baseline's requests do not use up the mock's terms.
 */
function freshSearch(): Target {
  let counter = 0;
  const sentTo = new Map<string, number>();
  return {
    label: '/alert?search=<5 hex digits, new each request>',
    path: `/alert?search=${freshTerm(1)}`,
    lua: { file: join(HERE, 'fresh-search.lua'), args: (base) => [String(sentTo.get(base) ?? 0)] },
    next: () => {
      counter += 1;
      return `/alert?search=${freshTerm(counter)}`;
    },
    sent: (base, requests) => {
      sentTo.set(base, (sentTo.get(base) ?? 0) + requests);
    },
  };
}

/** A random page of 20 records of alerts or sensors per request (see random-page.lua). */
const randomPage = (pages: number, seed: number): Target => ({
  label: '/{alert,sensor}?page=<random>&pageSize=20',
  path: '/alert?page=1&pageSize=20',
  lua: { file: join(HERE, 'random-page.lua'), args: () => [String(pages), String(seed)] },
  next: () => `/${Math.random() < 0.5 ? 'alert' : 'sensor'}?page=${1 + Math.floor(Math.random() * pages)}&pageSize=20`,
});

interface Load {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Responses other than 2xx or 3xx. */
  readonly non2xx: number;
  /** Connect, read, write errors and timeouts, added up. */
  readonly socketErrors: number;
  /** wrk's own breakdown of `socketErrors`, as it prints it. */
  readonly socketDetail?: string;
  /** CPU time (user + system) the server process spent per request, in µs, where it could be read. */
  readonly cpuUs?: number;
}

/** Reads wrk's report (run with --latency). */
function parseWrk(output: string): Load {
  const number = (pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`wrk's report lacks ${pattern}:\n${output}`);
    return match;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Math.round(Number(number(/Requests\/sec:\s+([\d.]+)/)[1])),
    p50: wrkMs(number(/^\s+50%\s+(\S+)/m)[1]!),
    p99: wrkMs(number(/^\s+99%\s+(\S+)/m)[1]!),
    requests: Number(number(/(\d+) requests in/)[1]),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    ...(socket ? { socketDetail: socket[0] } : {}),
  };
}

/** Runs a child to its end (killed with the bench). */
const run = (argv: string[]) => runToEnd(argv, children);

/** Loads `base` with `target` for `seconds` from `connections` connections, with wrk on core 1 (or autocannon). */
async function load(base: string, target: Target, seconds = DURATION, connections = CONNECTIONS): Promise<Load> {
  if (generator.name === 'wrk') {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s', '-H', `x-api-key: ${KEY}`];
    if (target.lua) args.push('-s', target.lua.file, `${base}/`, '--', ...target.lua.args(base));
    else args.push(`${base}${target.path}`);
    const result = await run(placed([generator.path, ...args], 'generator'));
    if (result.status !== 0) throw new Error(`wrk ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
    const parsed = parseWrk(result.stdout);
    // Requests still in flight when wrk stopped are not counted: skip past them too.
    target.sent?.(base, parsed.requests + connections);
    return parsed;
  }
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { 'x-api-key': KEY },
    requests: [{ setupRequest: (request) => ({ ...request, path: target.next() }) }],
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    socketErrors: result.errors + result.timeouts,
  };
}

/** A short unmeasured run, so every server is measured warm (JIT, caches, sockets). */
const warm = (base: string, target: Target) => load(base, target, WARMUP);

const mockCommand = (...args: string[]) => [process.execPath, CLI, 'serve', ...args];

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round2 = (n: number) => Math.round(n * 100) / 100;

/** A server's rounds: req/s their mean, p50 and p99 the median of the rounds' own, errors added up. */
interface Summary extends Load {
  readonly rounds: readonly Load[];
}
const summarize = (rounds: readonly Load[]): Summary => ({
  rps: Math.round(rounds.reduce((sum, l) => sum + l.rps, 0) / rounds.length),
  p50: round2(median(rounds.map((l) => l.p50))),
  p99: round2(median(rounds.map((l) => l.p99))),
  requests: rounds.reduce((sum, l) => sum + l.requests, 0),
  non2xx: rounds.reduce((sum, l) => sum + l.non2xx, 0),
  socketErrors: rounds.reduce((sum, l) => sum + l.socketErrors, 0),
  ...(rounds.every((l) => l.cpuUs !== undefined) ? { cpuUs: round2(median(rounds.map((l) => l.cpuUs!))) } : {}),
  ...(rounds.some((l) => l.socketErrors)
    ? { socketDetail: rounds.flatMap((l) => (l.socketErrors ? [l.socketDetail] : [])).join('; ') }
    : {}),
  rounds,
});

interface Contender {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  stop(): void;
}

/**
 * Loads each contender ROUNDS times for SLICE seconds, taking turns (the order reversed every other
 * round), after a warm-up each: a busy spell of the shared machine then hits every contender alike.
 */
async function compare(contenders: readonly Contender[], target: Target, warmTarget: Target = target): Promise<Summary[]> {
  for (const c of contenders) await warm(c.url, warmTarget);
  const runs = contenders.map((): Load[] => []);
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = contenders.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const before = cpuTime(contenders[i]!.child.pid);
      const result = await load(contenders[i]!.url, target, SLICE);
      const after = cpuTime(contenders[i]!.child.pid);
      const cpuUs =
        before === undefined || after === undefined || result.requests === 0 ? undefined : round2((after - before) / result.requests);
      runs[i]!.push(cpuUs === undefined ? result : { ...result, cpuUs });
    }
  }
  return runs.map(summarize);
}

interface Row {
  readonly scenario: string;
  readonly baseline: string;
  readonly base: Summary;
  readonly server: string;
  readonly measured: Summary;
  /** The median of the rounds' ratios measured / baseline. */
  readonly ratio: number;
  readonly ratios: readonly number[];
  /** The least ratio that meets the target. */
  readonly target?: number;
  readonly pass?: boolean;
  readonly rssMb: number;
  /**
   * The median of the rounds' ratios of CPU per request, baseline / measured: the share of the bare
   * server's cost, steadier than req/s on a shared machine. Only where both are one process of ours.
   */
  readonly cpuRatio?: number;
}

mkdirSync(OUT, { recursive: true });
const rows: Row[] = [];
const errors: string[] = [];
const warnings: string[] = [];

/** What a load's errors say, if it had any. */
const failures = (l: Load) =>
  l.non2xx || l.socketErrors
    ? `${l.non2xx} non-2xx/3xx responses, ${l.socketErrors} socket errors${l.socketDetail ? ` (${l.socketDetail})` : ''}`
    : '';

/**
 * Records a row. Errors of ours or of the bare server fail the run (none are expected); Prism's own
 * are reported beside it (they make its req/s, hence our ratio, look better than it is).
 */
function record(row: Omit<Row, 'ratio' | 'ratios' | 'pass' | 'cpuRatio'>, withCpu = false) {
  const ratios = row.measured.rounds.map((l, i) => round2(l.rps / row.base.rounds[i]!.rps));
  const ratio = round2(median(ratios));
  const cpuRatios = row.measured.rounds.flatMap((l, i) => {
    const base = row.base.rounds[i]!.cpuUs;
    return base !== undefined && l.cpuUs ? [base / l.cpuUs] : [];
  });
  const cpuRatio = withCpu && cpuRatios.length === row.measured.rounds.length ? round2(median(cpuRatios)) : undefined;
  rows.push({
    ...row,
    ratio,
    ratios,
    ...(row.target === undefined ? {} : { pass: ratio >= row.target }),
    ...(cpuRatio === undefined ? {} : { cpuRatio }),
  });
  for (const [who, l] of [
    [row.baseline, row.base],
    [row.server, row.measured],
  ] as const) {
    if (failures(l)) (who.startsWith('prism') ? warnings : errors).push(`${row.scenario}, ${who}: ${failures(l)}`);
  }
  const load = (l: Summary) =>
    `${l.rps} req/s, p50 ${l.p50} ms, p99 ${l.p99} ms${cpuRatio === undefined ? '' : `, CPU ${l.cpuUs} µs/request`}`;
  console.log(
    `  ${row.scenario}: ${row.baseline} ${load(row.base)} | ${row.server} ${load(row.measured)} | ${ratio}x (${ratios.join(', ')})${
      cpuRatio === undefined ? '' : `; by CPU per request ${cpuRatio}x`
    }`,
  );
}

console.log(
  `tempmon-kit bench: ${generator.name === 'wrk' ? `${generator.version}, -t1` : 'autocannon (fallback)'}, ${CONNECTIONS} connections; per server ${ROUNDS} rounds of ${SLICE} s taking turns, after a ${WARMUP} s warm-up; ${
    pinned ? 'servers on core 0, load on core 1' : 'not pinned (no taskset or one core, or BENCH_NO_PIN)'
  }; tempmon serve with its request log on, stdout to /dev/null`,
);

/** The live soak, with the bench's wrk and cores; undefined (and said) without wrk. */
async function soakRun() {
  if (generator.name === 'wrk') return liveSoak({ wrk: generator.path, placed, freePort }, soakSettings());
  console.log('\nlive soak: not run (it needs wrk)');
  return undefined;
}

/** The million runs: how each is named in errors and misses, on the console and in the README's table. */
const MILLION_RUNS = [
  { label: 'million', title: 'million alerts and a million sensors, server unpinned:', data: '1M alerts + 1M sensors' },
  // Live at the fastest rate, so the window turns over while it is loaded.
  {
    label: 'million live',
    live: ['--live', '--live-rate', '100/s'],
    title: 'the same, live at 100/s (--live --live-rate 100/s):',
    data: 'the same, `--live --live-rate 100/s`',
  },
];

// One part alone (see the top): no start-up runs, no table, no JSON.
const only = process.env.BENCH_ONLY;
if (only !== undefined && !['live', 'soak', 'million', 'drift'].includes(only))
  throw new Error('BENCH_ONLY: live (the live page row), soak, million (the two million-record runs) or drift');

// Start-up to the first 200 with the default dataset, as users start it.
const startups: number[] = [];
for (let i = 0; i < (only ? 0 : 5); i += 1) {
  const port = await freePort();
  const server = await start(mockCommand('--port', String(port)), `http://127.0.0.1:${port}/alert`);
  startups.push(server.startupMs);
  server.stop();
}
startups.sort((a, b) => a - b);
const startup = { medianMs: Math.round(startups[2]!), runsMs: startups.map(Math.round) };
if (!only) console.log(`start-up to the first 200 (default dataset, 5 runs): median ${startup.medianMs} ms`);

/** Starts a server on a free port and names it. */
async function contender(name: string, command: (port: number) => string[], path = '/alert', placement?: Placement): Promise<Contender> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, stop } = await start(command(port), `${url}${path}`, placement);
  return { name, url, child, stop };
}

/**
 * A search: it finishes the server's search indexes (built in the background from its start) before any
 * timing, so no row measures a server still building them.
 */
const indexed = async (url: string) => {
  for (const listing of ['alert', 'sensor'])
    await (await fetch(`${url}/${listing}?search=0`, { headers: { 'x-api-key': KEY } })).arrayBuffer();
};

// Headers that node:http writes itself; the rest are copied to the bare server.
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

// A plain live page (issue 41): at 100 arrivals a second its data changes every few milliseconds, and the
// requests between two changes share its bytes; each answer states its own moment. The bare server sends
// one of its answers, moment header and all.
async function livePageRow(): Promise<void> {
  const LIVE_PAGE = '/alert?page=3&pageSize=20';
  const live = await contender('tempmon serve --live', (port) =>
    mockCommand('--port', String(port), '--alerts', '10000', '--live', '--live-rate', '100/s'),
  );
  await indexed(live.url);
  const bare = await bareCopyOf(live, LIVE_PAGE, 'live');
  const [base, measured] = await compare([bare, live], fixed(LIVE_PAGE));
  bare.stop();
  record(
    {
      scenario: 'live page 3 of 20, 100 arrivals/s',
      baseline: bare.name,
      base: base!,
      server: live.name,
      measured: measured!,
      target: 0.5,
      rssMb: peakRss(live.child),
    },
    true,
  );
  live.stop();
}

if (only) {
  if (only === 'live') await livePageRow();
  const alone = only === 'soak' ? await soakRun() : only === 'drift' ? await liveDrift(driftSettings()) : undefined;
  const scale: ScaleRow[] = [];
  for (const named of only === 'million' ? MILLION_RUNS : []) {
    const run = await millionRecords(named.label, named.live);
    scale.push({ data: named.data, ...run });
    printMillion(named.title, run.checks);
    if (run.checks.some((c) => c.ok === false)) errors.push(`${named.label}: a target missed`);
  }
  // docs/performance.md's scale table is these two runs alone: a run of them alone makes it.
  if (scale.length === MILLION_RUNS.length && errors.length === 0) {
    const tablesPath = join(ROOT, TABLES_DOC);
    writeFileSync(tablesPath, withScaleTable(readFileSync(tablesPath, 'utf8'), scale));
    console.log(`${TABLES_DOC}: its scale table is now this run's`);
  }
  for (const r of rows)
    console.log(
      `${r.scenario}: ${r.baseline} ${r.base.rps} req/s, ${r.server} ${r.measured.rps} req/s: ${r.ratio}x (${r.ratios.join(', ')}), by CPU ${r.cpuRatio}x, target >= ${r.target}x: ${r.pass ? 'PASS' : 'MISS'}`,
    );
  const missed = rows.some((r) => r.pass === false) || alone?.checks.some((c) => c.ok === false);
  for (const e of [...errors, ...(alone?.failures ?? [])]) console.error(`*** ${e}`);
  process.exit(errors.length > 0 || (alone?.failures.length ?? 0) > 0 || missed ? 1 : 0);
}

const mock = await contender('tempmon serve', (port) => mockCommand('--port', String(port), '--alerts', '10000'));
const quiet = await contender('tempmon serve --quiet', (port) => mockCommand('--port', String(port), '--alerts', '10000', '--quiet'));
await indexed(mock.url);
await indexed(quiet.url);

const scenarios: { name: string; target: Target; warmTarget?: Target; ratio?: number; quiet?: boolean }[] = [
  { name: 'default page (20 records)', target: fixed('/alert'), ratio: 0.85, quiet: true },
  { name: 'pageSize=100', target: fixed('/alert?pageSize=100'), ratio: 0.85 },
  { name: 'search 10k alerts, fresh term', target: freshSearch(), ratio: 0.3 },
  { name: 'search 10k alerts, repeated term', target: fixed('/alert?search=ph28-1') },
];

/**
 * A bare node:http server sending `server`'s answer to `path`: its bytes and its headers (`name` tells its
 * files apart).
 */
async function bareCopyOf(server: Contender, path: string, name: string): Promise<Contender> {
  const response = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': KEY } });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  const bodyFile = join(OUT, `bench-body-${name}.json`);
  const headersFile = join(OUT, `bench-headers-${name}.json`);
  writeFileSync(bodyFile, Buffer.from(await response.arrayBuffer()));
  writeFileSync(headersFile, JSON.stringify(Object.fromEntries([...response.headers].filter(([header]) => !OWN_HEADERS.has(header)))));
  return contender('bare node:http', (port) => [process.execPath, join(HERE, 'bare-server.mjs'), bodyFile, String(port), headersFile], '/');
}

for (const [i, scenario] of scenarios.entries()) {
  // The bare server sends the mock's answer to the scenario's first request: its bytes and its headers.
  const bare = await bareCopyOf(mock, scenario.target.path, String(i));
  const [base, measured, measuredQuiet] = await compare(scenario.quiet ? [bare, mock, quiet] : [bare, mock], scenario.target);
  bare.stop();
  const common = { scenario: scenario.name, baseline: bare.name, base: base! };
  record(
    {
      ...common,
      server: mock.name,
      measured: measured!,
      rssMb: peakRss(mock.child),
      ...(scenario.ratio ? { target: scenario.ratio } : {}),
    },
    true,
  );
  if (measuredQuiet)
    record(
      { ...common, scenario: `${scenario.name}, --quiet`, server: quiet.name, measured: measuredQuiet, rssMb: peakRss(quiet.child) },
      true,
    );
}

await livePageRow();

// BENCH_AGAINST=DIR: the same scenarios against the mock of another checkout (its dist/ built), in turns with
// this one, so a change to the request path shows as paired CPU per request (by CPU: before / now).
const against = process.env.BENCH_AGAINST;
if (against) {
  const otherCli = join(against, 'dist/cli/main.js');
  if (!existsSync(otherCli)) throw new Error(`BENCH_AGAINST: no ${otherCli} (run npm run build there)`);
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: against, encoding: 'utf8' }).stdout.trim();
  const before = await contender(`tempmon serve at ${commit || against}`, (port) => [
    process.execPath,
    otherCli,
    'serve',
    '--port',
    String(port),
    '--alerts',
    '10000',
  ]);
  // A fresh mock of this checkout, started with it: the one above has served every scenario already.
  const now = await contender('tempmon serve now', (port) => mockCommand('--port', String(port), '--alerts', '10000'));
  await indexed(before.url);
  await indexed(now.url);
  for (const scenario of scenarios) {
    const [base, measured] = await compare([before, now], scenario.target);
    const row = { scenario: `${scenario.name}, before vs now`, baseline: before.name, base: base!, server: now.name };
    record({ ...row, measured: measured!, rssMb: peakRss(now.child) }, true);
  }
  before.stop();
  now.stop();
}

// Other runtimes (README, "Other runtimes"): the default page from Bun, Deno and workerd, started as users
// start them (their npm scripts, 10k alerts), against `tempmon serve --quiet` (none of them logs requests).
// workerd is measured as `npm run serve:workerd` serves it: behind the Node proxy of `wrangler dev`, both on
// the servers' core. Each runs in a process group of its own (npm, the runtime, wrangler's children), stopped
// as a whole. BENCH_RUNTIMES=0 leaves them out.
const groups = new Set<number>();
process.on('exit', () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
});
/** Peak resident memory of a process and its descendants, added up (VmHWM), in MB. */
const treeRss = (pid: number): number => {
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {}
  return peakRss({ pid } as ChildProcess) + kids.reduce((sum, kid) => sum + treeRss(kid), 0);
};
async function runtimeContender(name: string, script: string): Promise<Contender & { rss(): number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const argv = placed(['npm', 'run', '-s', script, '--', '--port', String(port), '--alerts', '10000'], 'server');
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', cwd: ROOT, detached: true });
  groups.add(child.pid!);
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {}
    groups.delete(child.pid!);
  };
  for (let i = 0; i < 1200 && child.exitCode === null; i += 1) {
    try {
      const response = await fetch(`${url}/alert`, { headers: { 'x-api-key': KEY } });
      await response.arrayBuffer();
      if (response.status === 200) {
        await indexed(url);
        return { name, url, child, stop, rss: () => treeRss(child.pid!) };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  stop();
  throw new Error(`npm run ${script} did not answer ${url}/alert in 60 s`);
}
if (process.env.BENCH_RUNTIMES !== '0') {
  for (const [name, script, tool] of [
    ['Bun', 'serve:bun', 'bun'],
    ['Deno', 'serve:deno', 'deno'],
    ['workerd (wrangler dev)', 'serve:workerd', 'wrangler'],
  ] as const) {
    // Installed apart (`npm run runtimes:install`): a missing one is left out, and the bench says so.
    const absent = missingTool(tool);
    if (absent) {
      console.log(`default page on ${name}: not measured, ${absent}`);
      continue;
    }
    const runtime = await runtimeContender(name, script);
    const [base, measured] = await compare([quiet, runtime], fixed('/alert'));
    const rssMb = runtime.rss();
    runtime.stop();
    record({ scenario: `default page on ${name}`, baseline: quiet.name, base: base!, server: name, measured: measured!, rssMb });
  }
}
quiet.stop();

const prismCli = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
if (existsSync(prismCli)) {
  const prism = await contender('prism mock (static)', (port) => [
    process.execPath,
    prismCli,
    'mock',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    'spec/openapi.yaml',
  ]);
  const [base, measured] = await compare([prism, mock], fixed('/alert'));
  prism.stop();
  record({
    scenario: 'default page vs Prism mock',
    baseline: prism.name,
    base: base!,
    server: mock.name,
    measured: measured!,
    target: 15,
    rssMb: peakRss(mock.child),
  });

  // Validating proxies in front of the same mock, for a 20-record page; ours logs its requests too.
  const proxy = await contender('tempmon proxy', (port) => [process.execPath, CLI, 'proxy', '--port', String(port), '--target', mock.url]);
  const prismProxy = await contender('prism proxy', (port) => [
    process.execPath,
    prismCli,
    'proxy',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    'spec/openapi.yaml',
    mock.url,
  ]);
  const [prismLoad, ours] = await compare([prismProxy, proxy], fixed('/alert'));
  record({
    scenario: 'validating proxy vs prism proxy',
    baseline: prismProxy.name,
    base: prismLoad!,
    server: proxy.name,
    measured: ours!,
    target: 10,
    rssMb: peakRss(proxy.child),
  });
  proxy.stop();
  prismProxy.stop();
} else {
  warnings.push('Prism (@stoplight/prism-cli) is not installed: its comparisons were left out');
}
mock.stop();

// A million records each, the server on any core, loaded with random pages by one sequential
// connection from right after the first 200, while the search index builds; /readyz polled meanwhile.
// The same again in live mode (`live` holds its options). BENCH_MILLION=0 leaves both out.
async function millionRecords(label: string, live?: readonly string[]) {
  const MILLION = 1_000_000;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const options = ['--alerts', String(MILLION), '--sensors', String(MILLION), ...(live ?? [])];
  console.log(`\nmillion-record mock: tempmon serve ${options.join(' ')}, unpinned`);
  const big = await start(mockCommand('--port', String(port), ...options), `${url}/alert`, 'any');
  const launched = performance.now() - big.startupMs;
  let readyMs: number | undefined;
  let lastProgress = '';
  let polling = true;
  const poller = (async () => {
    while (polling && readyMs === undefined) {
      try {
        const response = await fetch(`${url}/readyz`);
        const text = await response.text();
        if (response.status === 200) readyMs = performance.now() - launched;
        else lastProgress = text;
      } catch {
        // a busy moment; poll again
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const pages = MILLION / 20;
  const duringBuild = await load(url, randomPage(pages, 1), DURATION, 1);
  const builtDuringLoad = readyMs !== undefined;
  const rssDuringBuildMb = peakRss(big.child);
  for (let waited = 0; readyMs === undefined && waited < 600_000 && big.child.exitCode === null; waited += 200) {
    await new Promise((r) => setTimeout(r, 200));
  }
  polling = false;
  await poller;
  if (readyMs === undefined) errors.push(`${label}: /readyz never answered 200 (last: ${lastProgress})`);
  // Once ready, ready for good: /readyz is polled on while the window turns over under load.
  let notReadyAfter = 0;
  let readyPolls = 0;
  polling = true;
  const stillReady = (async () => {
    while (polling) {
      const response = await fetch(`${url}/readyz`).catch(() => undefined);
      await response?.arrayBuffer();
      readyPolls += 1;
      if (response?.status !== 200) notReadyAfter += 1;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const afterBuild = await load(url, randomPage(pages, 2), DURATION, 1);
  const throughput = await load(url, randomPage(pages, 3), DURATION, CONNECTIONS);
  polling = false;
  await stillReady;
  const searchesMs: number[] = [];
  for (let n = 1; n <= 5; n += 1) {
    const t = performance.now();
    const response = await fetch(`${url}/alert?search=${freshTerm(900_000 + n)}`, { headers: { 'x-api-key': KEY } });
    await response.arrayBuffer();
    searchesMs.push(Math.round(performance.now() - t));
    if (response.status !== 200) errors.push(`${label}: a search answered ${response.status}`);
  }
  const peakRssMb = peakRss(big.child);
  big.stop();
  for (const [name, l] of [
    ['during build', duringBuild],
    ['after build', afterBuild],
    [`${CONNECTIONS} connections`, throughput],
  ] as const) {
    if (failures(l)) errors.push(`${label}, random pages ${name}: ${failures(l)}`);
  }
  const firstOkMs = Math.round(big.startupMs);
  const checks: { what: string; value: string; target: string; ok?: boolean }[] = [
    { what: 'first 200 after start', value: `${firstOkMs} ms`, target: '<= 2000 ms', ok: firstOkMs <= 2000 },
    {
      what: 'random page while the index builds (1 connection)',
      value: `p50 ${duringBuild.p50} ms, p99 ${duringBuild.p99} ms, ${duringBuild.rps} req/s${builtDuringLoad ? ' (index ready before the run ended)' : ''}`,
      target: 'p50 <= 2 ms',
      ok: duringBuild.p50 <= 2,
    },
    {
      what: 'random page after (1 connection)',
      value: `p50 ${afterBuild.p50} ms, p99 ${afterBuild.p99} ms, ${afterBuild.rps} req/s`,
      target: '',
    },
    {
      what: `random page after (${CONNECTIONS} connections)`,
      value: `p50 ${throughput.p50} ms, p99 ${throughput.p99} ms, ${throughput.rps} req/s`,
      target: '',
    },
    { what: '/readyz answers 200', value: readyMs === undefined ? 'never' : `${(readyMs / 1000).toFixed(1)} s after start`, target: '' },
    {
      what: '/readyz after that, under load',
      value: `${readyPolls - notReadyAfter} of ${readyPolls} polls 200`,
      target: 'all 200',
      ok: readyPolls > 0 && notReadyAfter === 0,
    },
    {
      what: 'a search, fresh term (5 runs)',
      value: `${searchesMs.join(', ')} ms`,
      // A target in live mode (issue 28); static, the figure only.
      target: live ? 'each <= 100 ms' : '',
      ...(live ? { ok: Math.max(...searchesMs) <= 100 } : {}),
    },
    { what: 'peak RSS (VmHWM)', value: `${peakRssMb} MB`, target: '<= 500 MB', ok: peakRssMb <= 500 },
  ];
  const result = {
    options,
    firstOkMs,
    readyzOkMs: readyMs === undefined ? undefined : Math.round(readyMs),
    builtDuringLoad,
    duringBuild,
    afterBuild,
    throughput,
    searchesMs,
    peakRssMb,
    rssDuringBuildMb,
    checks,
  };
  return result;
}
const withMillion = process.env.BENCH_MILLION !== '0';

/** A million run's checks under its title, as the report prints them. */
function printMillion(title: string, checks: readonly { what: string; value: string; target: string; ok?: boolean }[]): void {
  console.log(`\n${title}`);
  for (const c of checks)
    console.log(`  ${c.what.padEnd(51)} ${c.value.padEnd(59)} ${c.target.padEnd(14)} ${c.ok === undefined ? '' : c.ok ? 'PASS' : 'MISS'}`);
}

/** `readme` with its scale table made of these million runs. */
function withScaleTable(readme: string, runs: readonly ScaleRow[]): string {
  return withBenchTable(readme, scaleTable(runs), [SCALE_START, SCALE_END]);
}
const millions: ((typeof MILLION_RUNS)[number] & { run: Awaited<ReturnType<typeof millionRecords>> })[] = [];
if (withMillion) for (const named of MILLION_RUNS) millions.push({ ...named, run: await millionRecords(named.label, named.live) });

// The live soak (issue 41, live-soak.ts): minutes of mixed load on a live mock, so only with BENCH_SOAK=1.
const soak = process.env.BENCH_SOAK === '1' ? await soakRun() : undefined;
if (!soak && process.env.BENCH_SOAK !== '1')
  console.log('\nlive soak: not run (BENCH_SOAK=1 adds it, about 10 minutes more; BENCH_ONLY=soak runs it alone)');
errors.push(...(soak?.failures.map((f) => `live soak, ${f}`) ?? []));

// The report.
const totalSeconds = Math.round((performance.now() - began) / 1000);
// At least one space after each cell, so a long name never runs into the next column.
const pad = (text: string | number, n: number) => `${String(text).padEnd(n - 1)} `;
const lat = (l: Load) => `${l.p50}/${l.p99}`;
const verdict = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? 'PASS' : 'MISS');
console.log(
  `\n${pad('scenario', 40)}${pad('baseline', 24)}${pad('req/s', 8)}${pad('p50/p99 ms', 16)}${pad('tempmon', 24)}${pad('req/s', 8)}${pad('p50/p99 ms', 16)}${pad('ratio', 8)}${pad('by CPU', 8)}${pad('target', 9)}result`,
);
for (const r of rows) {
  console.log(
    `${pad(r.scenario, 40)}${pad(r.baseline, 24)}${pad(r.base.rps, 8)}${pad(lat(r.base), 16)}${pad(r.server, 24)}${pad(r.measured.rps, 8)}${pad(lat(r.measured), 16)}${pad(`${r.ratio}x`, 8)}${pad(r.cpuRatio === undefined ? '' : `${r.cpuRatio}x`, 8)}${pad(r.target === undefined ? '' : `>= ${r.target}x`, 9)}${verdict(r.pass)}`,
  );
}
for (const { title, run } of millions) printMillion(title, run.checks);
console.log(`\nstart-up to the first 200 (default dataset, 5 runs): median ${startup.medianMs} ms (${startup.runsMs.join(', ')})`);

const misses = [
  ...rows.filter((r) => r.pass === false).map((r) => `${r.scenario}: ${r.ratio}x < ${r.target}x`),
  ...millions.flatMap(({ run, label }) =>
    run.checks.filter((c) => c.ok === false).map((c) => `${label}, ${c.what}: ${c.value} (target ${c.target})`),
  ),
  ...(soak?.checks.filter((c) => c.ok === false).map((c) => `live soak, ${c.what}: ${c.value} (target ${c.target})`) ?? []),
];
const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const json = {
  date: new Date().toISOString(),
  commit: git('rev-parse', 'HEAD'),
  dirty: git('status', '--porcelain', '--', 'src', 'spec') !== '',
  generator,
  connections: CONNECTIONS,
  durationSeconds: DURATION,
  rounds: ROUNDS,
  sliceSeconds: SLICE,
  warmupSeconds: WARMUP,
  method:
    "each server of a row is loaded in turns (ROUNDS x SLICE s, the order reversed every other round); ratio: the median of the rounds' ratios; req/s: the mean; p50/p99: the median of the rounds' percentiles; cpuUs: the server process's CPU time (user + system, /proc) per request, the median of the rounds'; cpuRatio: the median of the rounds' bare/measured CPU per request (a target is judged on ratio, req/s)",
  pinned,
  requestLog: 'on, stdout to /dev/null (rows marked --quiet: off)',
  startup,
  rows,
  million: millions[0]?.run,
  millionLive: millions[1]?.run,
  liveSoak: soak,
  misses,
  errors,
  warnings,
  totalSeconds,
};
writeFileSync(join(OUT, 'bench.json'), `${JSON.stringify(json, null, 2)}\n`);
console.log(`JSON: ${join(OUT, 'bench.json')}; whole run ${totalSeconds} s`);
// docs/performance.md's performance table is this run's (commit it with the change it measures).
const readmePath = join(ROOT, TABLES_DOC);
const readme = readFileSync(readmePath, 'utf8');
// Only a whole run's table: a run that left rows out (or added before/after rows) says so and leaves it.
const partial = !withMillion || process.env.BENCH_RUNTIMES === '0' || against !== undefined;
if (partial) console.log(`${TABLES_DOC}: its performance table left as it is (a partial run)`);
else if (readme.includes(TABLE_START)) {
  writeFileSync(
    readmePath,
    withScaleTable(
      withBenchTable(readme, benchTable(rows)),
      millions.map(({ run, data }) => ({ data, ...run })),
    ),
  );
  console.log(`${TABLES_DOC}: its performance table is now this run's`);
}
if (misses.length) console.log(`\nmissed targets:\n  ${misses.join('\n  ')}`);
if (generator.name === 'autocannon') console.warn(`\n*** measured with autocannon, not wrk (${generator.note}): ratios are flattered.`);
if (warnings.length) console.warn(`\nwarnings:\n  ${warnings.join('\n  ')}`);
if (errors.length) {
  console.error(`\n*** ERRORS where none are expected:\n  ${errors.join('\n  ')}`);
  process.exitCode = 1;
}
