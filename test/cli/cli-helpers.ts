// The CLI in tests, two ways:
// - as the user runs it: `node dist/cli/main.js` (built by `npm test`'s build step, or by
//   test/global-setup.ts when src/ changed since), for what only a process shows: exit codes, stderr, signals;
// - in this process: the command functions of src/cli/ with their log captured, for everything else
//   (options, banners, behaviour), with no process to start.
// Whatever a test starts is stopped after its file (test/setup.ts calls stopStarted).
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { CliError } from '../../src/cli/cli-error.ts';
import { ContractSetupError } from '../../src/contract/types.ts';
import { DataFileError } from '../../src/fixtures/load-data-file.ts';
import { SpecError } from '../../src/spec/load-spec.ts';
import { MAIN } from '../built-cli.ts';

export { MAIN };

const started = new Set<() => Promise<unknown>>();

/** Stops every server and child process started through these helpers (after each file). */
export async function stopStarted(): Promise<void> {
  const stops = [...started];
  started.clear();
  await Promise.all(stops.map((stop) => stop()));
}

/** Lines written by a command, with a way to wait for one. */
export class Output {
  #text = '';
  #waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];

  /** Everything written so far. */
  get text(): string {
    return this.#text;
  }

  /** Appends text (a chunk of a stream, or a logged line). */
  write = (chunk: string): void => {
    this.#text += chunk;
    const done = this.#waiters.filter((waiter) => waiter.test(this.#text));
    this.#waiters = this.#waiters.filter((waiter) => !done.includes(waiter));
    for (const waiter of done) waiter.resolve();
  };

  /** A log function that appends a line. */
  log = (line: string): void => this.write(`${line}\n`);

  /** Resolves with the text once it matches `pattern` (at once if it already does); rejects after `ms`, showing the text. */
  waitFor(pattern: RegExp | string, ms = 10_000): Promise<string> {
    const test = (text: string) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text));
    if (test(this.#text)) return Promise.resolve(this.#text);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${String(pattern)} within ${ms} ms in:\n${this.#text}`)), ms);
      this.#waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.#text);
        },
      });
    });
  }
}

export interface Started {
  readonly url: string;
  /** Everything printed so far (stdout and stderr). */
  readonly output: () => string;
  /** Resolves once the output matches `pattern`: a log line is written after the response is sent. */
  readonly waitFor: (pattern: RegExp | string, ms?: number) => Promise<string>;
}

/** The start banner is complete: its URL and its last line (serve prints `try:`, proxy `violations:`). */
const BANNER = /listening on (http:\/\/[^\s,]+)[\s\S]*\n {2}(try|violations): .*\n/;

/** Starts the built CLI (`serve` or `proxy`) on a free port; resolves once its banner is printed. */
export function startServe(
  args: string[],
  command: 'serve' | 'proxy' = 'serve',
): Promise<Started & { readonly stop: () => Promise<number | null> }> {
  // The key comes from the arguments only, not from a TEMPMON_API_KEY the developer has set.
  const { TEMPMON_API_KEY: _, ...env } = process.env;
  const child = spawn(process.execPath, [MAIN, command, '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () => stopChild(child);
  started.add(stop);
  const output = new Output();
  child.stdout!.setEncoding('utf8').on('data', output.write);
  child.stderr!.setEncoding('utf8').on('data', output.write);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${output.text}`))),
  );
  exited.catch(() => undefined);
  return Promise.race([output.waitFor(BANNER, 15_000), exited]).then((text) => ({
    url: BANNER.exec(text)![1]!,
    output: () => output.text,
    waitFor: (pattern, ms) => output.waitFor(pattern, ms),
    stop,
  }));
}

/** SIGTERM (the CLI closes its server and exits 0), then SIGKILL if it lingers; resolves with the exit code. */
function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI to completion without blocking this process (which may be serving the target). */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    started.add(() => stopChild(child));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** What the CLI does with a usage error: one line on stderr, `tempmon: ` and the message, exit code 2. */
export function expectOneLineExit2(result: CliResult, message: string): void {
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(/^tempmon: [^\n]+\n$/);
  expect(result.stderr).toContain(message);
}

/**
 * Runs a command function in this process and returns the error it fails with, checked to be one
 * that src/cli/run-cli.ts prints as one line with exit code 2 (a CliError, DataFileError, SpecError or
 * ContractSetupError; the processes of the tests above prove that mapping).
 */
export async function usageError(command: () => unknown): Promise<Error> {
  let error: unknown;
  try {
    await command();
  } catch (caught) {
    error = caught;
  }
  expect(error, 'the command should have failed').toBeInstanceOf(Error);
  const known = [CliError, DataFileError, SpecError, ContractSetupError].some((type) => error instanceof type);
  expect(known, `not a usage error, so main.ts would print "unexpected error": ${String(error)}`).toBe(true);
  expect((error as Error).message).not.toContain('\n');
  return error as Error;
}

/** A server started in this process by a command function (serveCommand, proxyCommand), stopped after the file. */
export async function startInProcess(
  command: (args: readonly string[], log: (line: string) => void) => Promise<{ url: string; close: () => Promise<void> } | undefined>,
  args: readonly string[],
): Promise<Started & { readonly close: () => Promise<void> }> {
  const output = new Output();
  const running = await command(['--port', '0', ...args], output.log);
  if (!running) throw new Error(`the command started nothing: ${output.text}`);
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= running.close());
  started.add(close);
  return { url: running.url, output: () => output.text, waitFor: (pattern, ms) => output.waitFor(pattern, ms), close };
}
