import { spawn, spawnSync } from 'node:child_process';
import { afterAll } from 'vitest';

/** The CLI from source, run through tsx (the built one is checked in dist.test.ts). */
export const BIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const NODE_ARGS = ['--import', 'tsx'];
const children: ReturnType<typeof spawn>[] = [];
afterAll(() => children.forEach((child) => child.kill('SIGTERM')));

/** Starts the real CLI on a free port and resolves with its URL and everything it printed so far. */
export function startServe(args: string[], command = 'serve'): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, [...NODE_ARGS, BIN, command, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 20_000);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/[^\s,]+)/.exec(output)?.[1];
      if (url && (output.includes('try:') || output.includes('violations:'))) {
        clearTimeout(timer);
        resolve({ url, output: () => output });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** Runs the CLI to completion. */
export const run = (...args: string[]) => spawnSync(process.execPath, [...NODE_ARGS, BIN, ...args], { encoding: 'utf8' });


/** Runs the CLI to completion without blocking this process (which may be serving the target). */
export function runAsync(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...NODE_ARGS, BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
