// What the bench and its live soak both do with processes: run one to its end, read its CPU time, read
// wrk's durations. bench.ts is a script (top-level await), so what live-soak.ts shares with it lives here.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The kernel's clock ticks per second, in which /proc reports CPU time. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * Runs a command to its end and resolves with its status and output; `running` holds the child meanwhile
 * (so a bench killed midway can kill it too).
 *
 * @example
 * const { status, stdout } = await runToEnd(['wrk', '--version']);
 */
export function runToEnd(
  argv: readonly string[],
  running?: Set<ChildProcess>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    running?.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (status) => {
      running?.delete(child);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * CPU time a process has used so far (user + system, /proc/PID/stat), in µs; undefined where there is no
 * /proc. Steadier than req/s on a shared machine: another job's load slows the server's clock, not its work.
 *
 * @example
 * cpuTime(process.pid); // 81234.5
 */
export function cpuTime(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * A wrk duration in milliseconds, to two decimals.
 *
 * @example
 * wrkMs('812.00us'); // 0.81
 */
export function wrkMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) throw new Error(`unreadable wrk duration ${JSON.stringify(text)}`);
  const value = Number(match[1]);
  return Math.round(value * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'] * 100) / 100;
}
