// The live soak (issue 41): `tempmon serve --live` used for minutes as a demo or a frontend team's shared mock
// is, under the mixed load of live-mix.lua from 50 connections, the server pinned to core 0 and wrk to core 1.
// Each minute is a wrk run of its own; after it the bench reads the server's RSS and CPU time, its /readyz
// (the search's backlog), then has V8 collect garbage through the inspector and reads the heap used after it.
// `npm run bench` runs it with BENCH_SOAK=1 (it takes about BENCH_SOAK_MINUTES minutes), and BENCH_ONLY=soak alone; or:
//   node --import tsx test/bench/live-soak.ts
// BENCH_SOAK_ALERTS (default 20000) and BENCH_SOAK_RATE (default 100/s) set the window; BENCH_SOAK_MINUTES its
// length (default: three turnovers of the window, 10 minutes for 20,000 alerts at 100/s); BENCH_SOAK_SEED the
// terms and pages; BENCH_SOAK_CLI another build's dist/cli/main.js, to soak it (before and after a change).
// The closing note's run: BENCH_SOAK_ALERTS=100000 BENCH_SOAK_MINUTES=30.
// After each minute a baseline round (BENCH_SOAK_BASELINE_SECONDS, default 10; 0 for none) runs the same mix
// against a static `tempmon serve --alerts N` on the same core: this shared machine's other jobs slow both,
// the live server's own drift only itself, so the steadiness target is judged on their ratio too.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { liveBlock } from '../../src/store/live-search.ts';
import { cpuTime, runToEnd, wrkMs } from './processes.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const KEY = 'tempmon-dev-key';
const CONNECTIONS = 50;
/** Every minute from the second on, at least this share of the second's requests per second. */
const STEADY = 0.9;
/** After the window's first turnover, RSS and heap within this ratio of their least. */
const FLAT = 1.1;

/** Where a process runs: the server's core, or the generator's. */
export type Placement = 'server' | 'generator';

/** What the soak needs of the bench: wrk, how to pin a command to its core, and a free port. */
export interface SoakTools {
  readonly wrk: string;
  readonly placed: (command: string[], placement: Placement) => string[];
  readonly freePort: () => Promise<number>;
}

/** How long and over what the soak runs (see the environment variables above). */
export interface SoakSettings {
  readonly alerts: number;
  /** Arrivals a second. */
  readonly perSecond: number;
  readonly minutes: number;
  readonly minuteSeconds: number;
  readonly seed: number;
  /** The CLI to serve with: this checkout's build unless BENCH_SOAK_CLI names another. */
  readonly cli: string;
  /** Seconds of the same mix against a static server after each minute; 0 for none. */
  readonly baselineSeconds: number;
}

/** One minute of the soak. */
export interface SoakMinute {
  readonly minute: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Responses by status (wrk's response() counts them); 500 and 404 are the forced quarter. */
  readonly statuses: Readonly<Record<string, number>>;
  /** The server's CPU time (user + system) per request, in µs: steadier than req/s on a shared machine. */
  readonly cpuUs: number;
  /** Resident memory at the minute's end, before the collection (MB). */
  readonly rssMb: number;
  /** Heap used right after a full collection at the minute's end (MB). */
  readonly heapMb: number;
  /** What /readyz reported: its status and each collection's backlog. */
  readonly readyz: number;
  readonly backlog: Readonly<Record<string, number>>;
  /** The server's event loop over the minute: delay p99 and most, and garbage collection (ms). */
  readonly loop: LoopMinute;
  /** The static server's req/s and CPU per request in the baseline round after the minute, if any. */
  readonly baseline?: { readonly rps: number; readonly cpuUs: number };
}

/** What the server's event loop went through in a minute, read through the inspector. */
export interface LoopMinute {
  readonly delayP99: number;
  readonly delayMax: number;
  readonly gcMs: number;
  readonly gcCount: number;
  readonly gcLongest: number;
}

/** Installed in the server through the inspector: a loop delay histogram and a sum of GC pauses. */
const WATCH_LOOP = `(() => {
  const { monitorEventLoopDelay, PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const gc = { ms: 0, count: 0, longest: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) { gc.ms += e.duration; gc.count += 1; gc.longest = Math.max(gc.longest, e.duration); }
  }).observe({ entryTypes: ['gc'] });
  globalThis.__soakLoop = { delay, gc, reset() { delay.reset(); gc.ms = 0; gc.count = 0; gc.longest = 0; } };
  return true;
})()`;
const READ_LOOP = `(() => {
  const { delay, gc } = globalThis.__soakLoop;
  return { delayP99: delay.percentile(99) / 1e6, delayMax: delay.max / 1e6, gcMs: gc.ms, gcCount: gc.count, gcLongest: gc.longest };
})()`;

/** A target's verdict, as the bench prints them. */
export interface SoakCheck {
  readonly what: string;
  readonly value: string;
  readonly target: string;
  /** Undefined for a figure with no target. */
  readonly ok?: boolean;
}

/**
 * The settings from the environment.
 *
 * @example
 * soakSettings({ BENCH_SOAK_ALERTS: '100000', BENCH_SOAK_MINUTES: '30' }).minutes; // 30
 */
export function soakSettings(env: NodeJS.ProcessEnv = process.env): SoakSettings {
  const alerts = Number(env.BENCH_SOAK_ALERTS ?? 20_000);
  const rate = /^(\d+)\/s$/.exec(env.BENCH_SOAK_RATE ?? '100/s');
  if (!rate) throw new Error('BENCH_SOAK_RATE: arrivals a second, such as 100/s');
  const perSecond = Number(rate[1]);
  const minuteSeconds = Number(env.BENCH_SOAK_MINUTE_SECONDS ?? 60);
  // Three turnovers of the window, in whole minutes.
  const minutes = Number(env.BENCH_SOAK_MINUTES ?? Math.ceil((3 * alerts) / perSecond / minuteSeconds));
  const cli = env.BENCH_SOAK_CLI ?? join(ROOT, 'dist/cli/main.js');
  const baselineSeconds = Number(env.BENCH_SOAK_BASELINE_SECONDS ?? 10);
  return { alerts, perSecond, minutes, minuteSeconds, seed: Number(env.BENCH_SOAK_SEED ?? 1), cli, baselineSeconds };
}

/**
 * Runs the soak and judges it: every minute from the second on at least STEADY times the second's req/s;
 * RSS and heap after GC flat within FLAT after the first turnover; /readyz 200 with the backlog under two
 * blocks at every look; no status but 200 and the forced 500 and 404.
 *
 * @example
 * const { checks } = await liveSoak({ wrk: '/usr/bin/wrk', placed: (c) => c, freePort }, soakSettings());
 */
export async function liveSoak(tools: SoakTools, settings: SoakSettings, log: (line: string) => void = console.log) {
  const { alerts, perSecond, minutes, minuteSeconds, seed, cli, baselineSeconds } = settings;
  const url = `http://127.0.0.1:${await tools.freePort()}`;
  const args = ['serve', '--port', new URL(url).port, '--live', '--live-rate', `${perSecond}/s`, '--alerts', String(alerts)];
  log(
    `\nlive soak: tempmon serve --live --live-rate ${perSecond}/s --alerts ${alerts}, ${minutes} x ${minuteSeconds} s of live-mix.lua from ${CONNECTIONS} connections` +
      (baselineSeconds > 0
        ? `, each minute then ${baselineSeconds} s of it against tempmon serve --alerts ${alerts} (static, same core)`
        : ''),
  );
  const server = await startServer(tools.placed([process.execPath, '--inspect=127.0.0.1:0', cli, ...args], 'server'), url);
  const baseUrl = baselineSeconds > 0 ? `http://127.0.0.1:${await tools.freePort()}` : undefined;
  const rows: SoakMinute[] = [];
  const failures: string[] = [];
  let inspector: Awaited<ReturnType<typeof connect>> | undefined;
  let base: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    base = baseUrl
      ? await startServer(
          tools.placed([process.execPath, cli, 'serve', '--port', new URL(baseUrl).port, '--alerts', String(alerts)], 'server'),
          baseUrl,
        )
      : undefined;
    inspector = await connect(server.inspectorUrl);
    await inspector.call('Runtime.evaluate', { expression: WATCH_LOOP, returnByValue: true });
    const evaluate = async (expression: string) =>
      ((await inspector!.call('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value: unknown } }).result.value;
    // Requests sent to each server so far: terms never repeat on either.
    const sent = new Map<string, number>();
    const round = async (target: string, pid: number | undefined, seconds: number) => {
      const wrkArgs = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '--timeout', '10s', '-H', `x-api-key: ${KEY}`];
      wrkArgs.push(
        '-s',
        join(ROOT, 'test/bench/live-mix.lua'),
        `${target}/`,
        '--',
        String(sent.get(target) ?? 0),
        String(seed),
        String(alerts),
      );
      const cpuBefore = cpuTime(pid) ?? 0;
      const run = await runToEnd(tools.placed([tools.wrk, ...wrkArgs], 'generator'));
      if (run.status !== 0) throw new Error(`wrk failed:\n${run.stdout}${run.stderr}`);
      const load = readWrk(run.stdout);
      // Requests in flight when wrk stopped are not counted: skip past their terms too.
      sent.set(target, (sent.get(target) ?? 0) + load.requests + CONNECTIONS);
      return { load, cpuUs: Math.round(((cpuTime(pid) ?? 0) - cpuBefore) / Math.max(1, load.requests)) };
    };
    for (let minute = 1; minute <= minutes; minute += 1) {
      await evaluate('globalThis.__soakLoop.reset()');
      const { load, cpuUs } = await round(url, server.child.pid, minuteSeconds);
      const loop = (await evaluate(READ_LOOP)) as LoopMinute;
      const rssMb = residentMb(server.child);
      const probe = await fetch(`${url}/readyz`);
      const body = (await probe.json()) as { backlog?: Record<string, number> };
      await inspector.call('HeapProfiler.collectGarbage');
      const heapMb = Math.round(Number(await evaluate('process.memoryUsage().heapUsed')) / 1e6);
      const baseline = base && baseUrl ? await round(baseUrl, base.child.pid, baselineSeconds) : undefined;
      const row: SoakMinute = {
        minute,
        ...load,
        cpuUs,
        rssMb,
        heapMb,
        readyz: probe.status,
        backlog: body.backlog ?? {},
        loop,
        ...(baseline ? { baseline: { rps: baseline.load.rps, cpuUs: baseline.cpuUs } } : {}),
      };
      rows.push(row);
      const against = row.baseline
        ? `; static ${row.baseline.rps} req/s (live ${(row.rps / row.baseline.rps).toFixed(2)}x), ${row.baseline.cpuUs} µs/request`
        : '';
      log(
        `  minute ${String(minute).padStart(2)}: ${String(row.rps).padStart(6)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, CPU ${cpuUs} µs/request, RSS ${rssMb} MB, heap after GC ${heapMb} MB, /readyz ${probe.status}, backlog ${JSON.stringify(row.backlog)}, loop delay p99 ${loop.delayP99.toFixed(0)} ms, most ${loop.delayMax.toFixed(0)} ms, GC ${loop.gcMs.toFixed(0)} ms in ${loop.gcCount} (longest ${loop.gcLongest.toFixed(0)} ms)${against}`,
      );
      for (const [what, statuses, errors] of [
        ['', load.statuses, load.socketErrors],
        ['static baseline: ', baseline?.load.statuses ?? {}, baseline?.load.socketErrors ?? 0],
      ] as const) {
        const unexpected = Object.entries(statuses).filter(([status]) => !['200', '404', '500'].includes(status));
        if (unexpected.length > 0)
          failures.push(`minute ${minute}: ${what}unexpected statuses ${JSON.stringify(Object.fromEntries(unexpected))}`);
        if (errors > 0) failures.push(`minute ${minute}: ${what}${errors} socket errors`);
      }
    }
  } finally {
    inspector?.close();
    server.child.kill('SIGKILL');
    base?.child.kill('SIGKILL');
  }
  failures.push(...server.failures(), ...(base?.failures() ?? []));
  const checks = judge(rows, settings);
  for (const c of checks)
    log(`  ${c.what.padEnd(58)} ${c.value.padEnd(44)} ${c.target.padEnd(22)} ${c.ok === undefined ? '' : c.ok ? 'PASS' : 'MISS'}`);
  return { settings, block: liveBlock(alerts), minutes: rows, checks, failures };
}

/** The soak's targets, judged on its minutes. */
function judge(rows: readonly SoakMinute[], { alerts, perSecond, minuteSeconds }: SoakSettings): SoakCheck[] {
  const second = rows[1];
  const checks: SoakCheck[] = [];
  if (second) {
    const worst = rows.slice(1).reduce((low, r) => (r.rps < low.rps ? r : low));
    checks.push({
      what: `every minute from the 2nd: req/s vs the 2nd's (${second.rps})`,
      value: `least ${(worst.rps / second.rps).toFixed(2)}x (minute ${worst.minute})`,
      target: `>= ${STEADY}x`,
      ok: worst.rps >= STEADY * second.rps,
    });
    const share = (r: SoakMinute) => (r.baseline ? r.rps / r.baseline.rps : undefined);
    const secondShare = share(second);
    if (secondShare !== undefined) {
      const least = rows.slice(1).reduce((low, r) => ((share(r) ?? 0) < (share(low) ?? 0) ? r : low));
      checks.push({
        what: `the same, each minute as a share of the static server's (${secondShare.toFixed(2)}x)`,
        value: `least ${((share(least) ?? 0) / secondShare).toFixed(2)}x (minute ${least.minute})`,
        target: `>= ${STEADY}x`,
        ok: rows.slice(1).every((r) => (share(r) ?? 0) >= STEADY * secondShare),
      });
    }
    const costliest = rows.slice(1).reduce((high, r) => (r.cpuUs > high.cpuUs ? r : high));
    checks.push({
      what: `CPU per request vs the 2nd minute's (${second.cpuUs} µs)`,
      value: `most ${(costliest.cpuUs / second.cpuUs).toFixed(2)}x (minute ${costliest.minute})`,
      target: '',
    });
  }
  // The minutes that end after the window's first turnover.
  const turnedOver = rows.filter((r) => r.minute * minuteSeconds >= alerts / perSecond);
  for (const [what, of] of [
    ['RSS', (r: SoakMinute) => r.rssMb],
    ['heap after GC', (r: SoakMinute) => r.heapMb],
  ] as const) {
    if (turnedOver.length < 2) break;
    const values = turnedOver.map(of);
    const spread = Math.max(...values) / Math.min(...values);
    checks.push({
      what: `${what} after the first turnover (minute ${turnedOver[0]!.minute} on)`,
      value: `${Math.min(...values)}..${Math.max(...values)} MB (${spread.toFixed(2)}x)`,
      target: `flat within ${Math.round((FLAT - 1) * 100)}%`,
      ok: spread <= FLAT,
    });
  }
  const block = liveBlock(alerts);
  const most = Math.max(0, ...rows.map((r) => r.backlog.alerts ?? Number.POSITIVE_INFINITY));
  checks.push({
    what: '/readyz at each minute: 200, alerts backlog',
    value: `${rows.filter((r) => r.readyz === 200).length} of ${rows.length} 200, backlog at most ${most}`,
    target: `all, < ${2 * block}`,
    ok: rows.every((r) => r.readyz === 200) && most < 2 * block,
  });
  return checks;
}

/** Reads wrk's report (--latency) and live-mix.lua's count of statuses. */
function readWrk(output: string) {
  const number = (pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`wrk's report lacks ${pattern}:\n${output}`);
    return match[1]!;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Math.round(Number(number(/Requests\/sec:\s+([\d.]+)/))),
    p50: wrkMs(number(/^\s+50%\s+(\S+)/m)),
    p99: wrkMs(number(/^\s+99%\s+(\S+)/m)),
    requests: Number(number(/(\d+) requests in/)),
    statuses: Object.fromEntries([...output.matchAll(/^status (\d+): (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])])),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/** Resident memory of a process now (VmRSS), in MB. */
function residentMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** Starts a server (stdout to nowhere, as `> /dev/null`), waits for /readyz 200, and finds its inspector if it has one. */
async function startServer(argv: string[], url: string) {
  const inspected = argv.some((arg) => arg.startsWith('--inspect'));
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], cwd: ROOT });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  for (let i = 0; i < 1200 && child.exitCode === null; i += 1) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    const inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
    if (ready && (inspectorUrl || !inspected)) {
      return {
        child,
        inspectorUrl: inspectorUrl ?? '',
        // The app's own failures (an exception in a handler) are logged as `tempmon: ...`.
        failures: () => stderr.split('\n').filter((line) => line.startsWith('tempmon:')),
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the live mock did not get ready at ${url}:\n${stderr}`);
}

/** A connection to a process's inspector: one call at a time. */
async function connect(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  return {
    call: (method: string, params: object = {}) =>
      new Promise<unknown>((resolve) => {
        id += 1;
        const mine = id;
        const listen = (event: MessageEvent) => {
          const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
          if (message.id !== mine) return;
          socket.removeEventListener('message', listen);
          resolve(message.result);
        };
        socket.addEventListener('message', listen);
        socket.send(JSON.stringify({ id: mine, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Tools of its own when run alone: wrk from /usr/bin or PATH, taskset where there are two cores. */
function ownTools(): SoakTools {
  const wrk = existsSync('/usr/bin/wrk') ? '/usr/bin/wrk' : 'wrk';
  const pinned = cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0 && !process.env.BENCH_NO_PIN;
  return {
    wrk,
    placed: (command, placement) => (pinned ? ['taskset', '-c', placement === 'server' ? '0' : '1', ...command] : command),
    freePort: () =>
      new Promise((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await liveSoak(ownTools(), soakSettings());
  for (const failure of result.failures) console.error(`*** ${failure}`);
  if (result.failures.length > 0 || result.checks.some((c) => c.ok === false)) process.exitCode = 1;
}
