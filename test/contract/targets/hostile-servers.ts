// Helpers of hostile-targets.slow.test.ts: small node:http targets on the loopback interface, the built CLI
// run against them as a child process (with its peak RSS when the platform can tell), and a leak finder
// that looks for any 8-character fragment of a secret in what the CLI wrote.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The built CLI, as the package's bin runs it (test/global-setup.ts builds dist/ when a source is newer).
import { MAIN } from '../../built-cli.ts';

export { MAIN };

// --- Targets.

export type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** A target listening on 127.0.0.1, counting the requests it got. */
export interface Target {
  readonly url: string;
  readonly port: number;
  /** Requests received so far. */
  readonly requests: () => number;
  close(): Promise<void>;
}

const open: Server[] = [];

/** Serves `handler` on 127.0.0.1 (port 0: a free one; never another address). */
export function listen(handler: Handler, port = 0): Promise<Target> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`test target failed: ${String(error)}`);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      open.push(server);
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${bound}`,
        port: bound,
        requests: () => requests,
        close: () => closeServer(server),
      });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  const at = open.indexOf(server);
  if (at >= 0) open.splice(at, 1);
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Closes every target still open. */
export const closeAll = () => Promise.all([...open].map(closeServer));

/** Whether `port` on 127.0.0.1 can be listened on now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The request as a fetch Request (for handing it to an in-process app). */
export function toRequest(request: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) headers.append(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
  return new Request(`http://${request.headers.host ?? '127.0.0.1'}${request.url ?? '/'}`, { method: request.method ?? 'GET', headers });
}

/** Writes a fetch Response to a node:http response, with `body` instead of its own when given. */
export async function writeResponse(response: ServerResponse, answer: Response, body?: string): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  });
  const bytes = body !== undefined ? Buffer.from(body) : Buffer.from(await answer.arrayBuffer());
  response.writeHead(answer.status, { ...headers, 'content-length': String(bytes.byteLength) });
  response.end(bytes);
}

/** A node:http handler answering with an in-process fetch handler (the mock's `app.fetch`). */
export const fromFetch =
  (fetch: (request: Request) => Response | Promise<Response>): Handler =>
  async (request, response) =>
    writeResponse(response, await fetch(toRequest(request)));

/**
 * A 200 `application/json` body that never ends: `[` then `{"a":1},` forever, written as fast as the
 * client reads (backpressure respected), until the client goes away.
 */
export const endlessJson: Handler = (request, response) => {
  const chunk = Buffer.from('{"a":1},'.repeat(8192));
  response.writeHead(200, { 'content-type': 'application/json' });
  // A HEAD answer has no body: Node drops what is written, so write() never pushes back and the loop would not end.
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  response.write('[');
  const pump = () => {
    while (!response.destroyed && !response.writableEnded) {
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  response.on('error', () => undefined);
  pump();
};

// --- The CLI.

export interface CliResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
  /** Peak resident set size in MB, when measured ({@link RunOptions.measureRss}) and measurable. */
  readonly peakRssMb?: number;
  /** How the peak RSS was read, or why it could not be. */
  readonly rssSource: string;
}

export interface RunOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Kills the CLI after this long (a hang fails the test instead of stalling it). */
  readonly killAfterMs?: number;
  readonly measureRss?: boolean;
  /** Another command of the CLI than `contract` (`fixtures`, to measure it alike). */
  readonly command?: string;
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'];

/** Whether GNU time (`/usr/bin/time -v`, which reports the maximum RSS) is usable here. */
const gnuTime = (() => {
  let known: boolean | undefined;
  return () =>
    (known ??=
      existsSync('/usr/bin/time') &&
      /Maximum resident set size/.test(spawnSync('/usr/bin/time', ['-v', 'true'], { encoding: 'utf8' }).stderr ?? ''));
})();

/**
 * Runs `node dist/cli/main.js contract ...args` to completion, without blocking this process (which
 * serves the targets). Targets are on the loopback interface: proxy variables are dropped from its
 * environment. With `measureRss`, the peak RSS comes from `/usr/bin/time -v`, else from polling VmHWM
 * in /proc/<pid>/status.
 */
export function runContractCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const name of PROXY_VARIABLES) delete env[name];
  const command = [MAIN, options.command ?? 'contract', ...args];
  const scratch = options.measureRss && gnuTime() ? mkdtempSync(join(tmpdir(), 'tempmon-rss-')) : undefined;
  const timeFile = scratch ? join(scratch, 'time.txt') : undefined;
  const child = timeFile
    ? spawn('/usr/bin/time', ['-v', '-o', timeFile, process.execPath, ...command], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, command, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  // Without GNU time: VmHWM (the peak so far) of the node process itself, read until it exits.
  let polledKb: number | undefined;
  const poll =
    options.measureRss && !timeFile && existsSync(`/proc/${process.pid}/status`)
      ? setInterval(() => {
          try {
            const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
            if (Number.isFinite(kb)) polledKb = Math.max(polledKb ?? 0, kb);
          } catch {
            // exited meanwhile
          }
        }, 10)
      : undefined;
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 90_000);

  return new Promise((resolve) => {
    child.on('close', (status, signal) => {
      clearTimeout(killer);
      if (poll) clearInterval(poll);
      const seconds = (performance.now() - started) / 1000;
      let peakRssMb: number | undefined;
      let rssSource = options.measureRss ? 'neither /usr/bin/time -v nor /proc/<pid>/status is available' : 'not measured';
      if (timeFile) {
        const kb = Number(
          /Maximum resident set size \(kbytes\): (\d+)/.exec(existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '')?.[1],
        );
        if (Number.isFinite(kb)) [peakRssMb, rssSource] = [kb / 1024, '/usr/bin/time -v'];
        else rssSource = '/usr/bin/time -v wrote no maximum RSS';
        rmSync(scratch!, { recursive: true, force: true });
      } else if (polledKb !== undefined) {
        [peakRssMb, rssSource] = [polledKb / 1024, 'VmHWM polled from /proc/<pid>/status'];
      }
      resolve({ status, signal, stdout, stderr, seconds, ...(peakRssMb !== undefined ? { peakRssMb } : {}), rssSource });
    });
  });
}

// --- Leaks.

const FRAGMENT = 8;

/** Every `FRAGMENT`-character window of `text`. */
const windows = (text: string): string[] =>
  Array.from({ length: Math.max(0, text.length - FRAGMENT + 1) }, (_, i) => text.slice(i, i + FRAGMENT));

/** The base64 characters that depend on `secret` alone, at each byte offset inside a longer string, standard and url-safe. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const form = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    forms.push(form, form.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

/** `text` with JSON escapes (`\u0073`, `\"`...) decoded. */
const jsonUnescaped = (text: string) =>
  text.replace(/\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])/g, (_, hex: string | undefined, c: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : (({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[c!] ?? c!),
  );
/** `text` with `%XX` escapes decoded (byte by byte: enough for an ASCII secret). */
const percentDecoded = (text: string) => text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** `text` with XML's character references decoded. */
const xmlDecoded = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (whole, name: string, dec?: string, hex?: string) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(parseInt(hex, 16))
        : (({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[name] ?? whole),
  );

/**
 * Where `text` shows any 8-character fragment of `secret`, in any letter case (swapping the case of a
 * shown key back gives the key): as written, with JSON escapes, `%XX` escapes or XML references decoded
 * (once, and all together), and in base64 (the characters of the secret's encoding at any byte offset,
 * in their own case). Each hit is given with some context, for the failure message.
 */
export function findLeaks(text: string, secret: string): string[] {
  const plain = new Set(windows(secret.toLowerCase()));
  const encoded = new Set(base64Forms(secret).flatMap(windows));
  const views = new Set([
    text,
    jsonUnescaped(text),
    percentDecoded(text),
    xmlDecoded(text),
    percentDecoded(jsonUnescaped(xmlDecoded(text))),
  ]);
  const hits: string[] = [];
  for (const view of views) {
    for (let i = 0; i + FRAGMENT <= view.length; i += 1) {
      const window = view.slice(i, i + FRAGMENT);
      const literal = plain.has(window.toLowerCase());
      if (literal || encoded.has(window)) {
        hits.push(
          `${literal ? 'fragment' : 'base64 fragment'} ${JSON.stringify(window)} in …${view.slice(Math.max(0, i - 40), i + FRAGMENT + 40)}…`,
        );
        i += FRAGMENT - 1;
      }
    }
  }
  return hits;
}
