// Targets in child processes of their own: a target whose work takes CPU (making each chunk of a body) must not
// share an event loop with the test, nor the test's with it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A target running as `node --input-type=module -e <source>`. */
export interface ChildTarget {
  readonly url: string;
  /** The lines it printed after its URL, parsed as JSON (its log). */
  readonly log: () => unknown[];
  close(): Promise<void>;
}

/** How to stop each child target still running. */
const running = new Set<() => Promise<void>>();

/**
 * Starts `source` (an ES module for node that listens on 127.0.0.1, port 0, and prints its URL as its first line
 * of stdout) with `args`, and resolves once it listens.
 *
 * @example
 * const target = await childTarget(SLOW_ENDLESS_SERVER, ['4']);
 */
export function childTarget(source: string, args: readonly string[] = []): Promise<ChildTarget> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source, '--', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const log: unknown[] = [];
  const close = () =>
    new Promise<void>((resolve) => {
      running.delete(close);
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill();
    });
  running.add(close);
  return new Promise((resolve, reject) => {
    let url: string | undefined;
    child.once('exit', (code) => url === undefined && reject(new Error(`the target exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (url === undefined) {
        url = line.trim();
        resolve({ url, log: () => log, close });
      } else log.push(JSON.parse(line));
    });
  });
}

/** Stops every child target still running. */
export const closeChildTargets = () => Promise.all([...running].map((close) => close()));

/**
 * A 200 JSON body without end on every request, one 60 KB chunk per turn of its event loop, back-pressure
 * honoured, each chunk costing `argv[2]` ms of CPU (the work of making it: serializing records). Logs each
 * request's bytes sent when it closes: `{"url":"/alert","bytes":123}`.
 */
export const SLOW_ENDLESS_SERVER = `
import { createServer } from 'node:http';
const costMs = Number(process.argv[2] ?? 0);
const chunk = Buffer.from('{"a":1},'.repeat(7680));
const server = createServer((request, response) => {
  let bytes = 0;
  response.on('close', () => console.log(JSON.stringify({ url: request.url, bytes })));
  response.on('error', () => undefined);
  response.writeHead(200, { 'content-type': 'application/json' });
  if (request.method === 'HEAD') return void response.end();
  response.write('[');
  const pump = () => {
    if (response.destroyed || response.writableEnded) return;
    for (const until = performance.now() + costMs; performance.now() < until; );
    bytes += chunk.byteLength;
    if (response.write(chunk)) setImmediate(pump);
    else response.once('drain', () => setImmediate(pump));
  };
  pump();
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;
