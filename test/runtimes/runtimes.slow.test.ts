// One mock, every runtime (issue 13): workerd (wrangler dev), Bun and Deno, each started from
// toolchains/ (`npm run runtimes:install`) with its npm script, answer as `tempmon serve` on Node does: same status, the
// headers that matter and the same body bytes, for pages, searches, bad parameters, missing keys and
// forced states; and the kit's own contract run finds each conformant (--strict). Started with a data file
// (Bun, Deno), with injected faults or live at a frozen --clock (issue 28), they answer as Node does too, and
// two Node processes live at that clock answer alike; with --rate-limit 2 the third quick request gets 429.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { EARLIEST_ANCHOR } from '../../src/live/live-options.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { MAIN, ROOT } from '../built-cli.ts';
import { INSTALL, missingTool } from '../../src/build/runtime-tool.mjs';

const KEY = 'runtimes-test-key';
const DATA = ['--seed', '7', '--alerts', '1200', '--sensors', '300'];
/** A data file of the project's own generated records, for the runtimes with a file system. */
const FILE_DIR = mkdtempSync(join(tmpdir(), 'tempmon-runtimes-'));
const FILE = join(FILE_DIR, 'data.json');
writeFileSync(FILE, JSON.stringify(generateDataset(loadSpec().document, { seed: 11, counts: { alerts: 40, sensors: 12 } })));
/** Live data at a frozen clock: every runtime and process gives the same bytes for the same moment. */
const FROZEN_AT = '2026-11-20T10:00:00.123Z';
const LIVE = ['--seed', '7', '--alerts', '300', '--sensors', '120', '--live', '--live-rate', '5/s', '--clock', FROZEN_AT];
const LIVE_PATHS = [
  '/alert',
  '/alert?pageSize=100&page=3',
  '/sensor?pageSize=100',
  '/alert?search=resolved',
  '/alert?search=trig&pageSize=5&page=2',
  '/sensor?search=ams',
];
/** Injected faults: the fault stream follows the seed and the order of requests. */
const FAULTS = ['--seed', '7', '--alerts', '60', '--sensors', '20', '--error-rate', '0.5'];
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
  'tempmon-moment',
];

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

// Port 0: each picks a free port itself and says which; none is picked here and handed over (another process
// could take it in between).
const npm = (script: string, args: readonly string[] = DATA) => start('npm', ['run', '-s', script, '--', '--port', '0', ...args]);

/** Each runtime's npm script, the tool it needs from toolchains/, and whether it reads data files (not a Worker). */
const RUNTIMES = {
  workerd: { script: 'serve:workerd', tool: 'wrangler', files: false },
  bun: { script: 'serve:bun', tool: 'bun', files: true },
  deno: { script: 'serve:deno', tool: 'deno', files: true },
} as const;

// The toolchains are installed apart (`npm run runtimes:install`): missing, a runtime is skipped with how to get
// it, except under CI=true, where .ci/run installs them and a missing one fails the run.
const missing = Object.values(RUNTIMES).flatMap(({ tool }) => missingTool(tool) ?? []);
if (missing.length > 0 && process.env.CI) throw new Error(`${missing[0]} (.ci/run must run ${INSTALL})`);

/** `tempmon serve` on Node with `args` and a free port. */
const serveOnNode = async (args: readonly string[]) => start(process.execPath, [MAIN, 'serve', '--port', '0', '--quiet', ...args]);

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

/** The requests sent in order to a server with injected faults, and to one serving a data file. */
const SEQUENCE = ['/alert', '/alert?pageSize=5&page=2', '/sensor', '/alert?search=a', '/sensor?pageSize=3', '/alert?page=3'];
const SEQUENCES = [...SEQUENCE, ...SEQUENCE, ...SEQUENCE];

/** Answers to `paths`, one after the other on one connection (the order is what a fault stream follows). */
async function answers(origin: string, paths: readonly string[]): Promise<(Answer & { path: string })[]> {
  const all = [];
  for (const path of paths) all.push({ path, ...(await answer(origin, path, { 'x-api-key': KEY })) });
  return all;
}

let node: Started | undefined;
let nodeData: Started | undefined;
/** Node's answers in live mode at FROZEN_AT, taken from one process and again from another. */
let liveAnswers: (Answer & { path: string })[] = [];
let liveTwinAnswers: (Answer & { path: string })[] = [];
/** Node's answers to SEQUENCES with FAULTS, taken once: its fault stream moves on with every request. */
let faultAnswers: (Answer & { path: string })[] = [];
const started: Partial<Record<keyof typeof RUNTIMES, Started>> = {};
/** Every server started, stopped after the file. */
const children: Started[] = [];

/** Starts all at once; each one that started is stopped after the file even when another failed to start. */
async function startAll(starting: readonly Promise<Started>[]): Promise<Started[]> {
  const settled = await Promise.allSettled(starting);
  for (const result of settled) if (result.status === 'fulfilled') children.push(result.value);
  return settled.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}

beforeAll(async () => {
  let nodeFaults: Started | undefined;
  let nodeLive: Started | undefined;
  let nodeLiveTwin: Started | undefined;
  [node, nodeData, nodeFaults, nodeLive, nodeLiveTwin] = await startAll([
    serveOnNode(DATA),
    serveOnNode(['--data', FILE]),
    serveOnNode(FAULTS),
    serveOnNode(LIVE),
    serveOnNode(LIVE),
  ]);
  faultAnswers = await answers(nodeFaults!.url, SEQUENCES);
  liveAnswers = await answers(nodeLive!.url, LIVE_PATHS);
  liveTwinAnswers = await answers(nodeLiveTwin!.url, LIVE_PATHS);
  stop(nodeLive);
  stop(nodeLiveTwin);
}, 120_000);

describe('live mode at a frozen --clock on Node', () => {
  it('answers alike from two processes, byte for byte, stating the frozen moment', () => {
    expect(liveTwinAnswers).toEqual(liveAnswers);
    expect(liveAnswers.map((a) => a.status)).toEqual(LIVE_PATHS.map(() => 200));
    expect(liveAnswers.every((a) => a.headers['tempmon-moment'] === FROZEN_AT)).toBe(true);
    expect(liveAnswers[0]!.headers['x-total-count']).toBe('300');
    // The window has moved on from the seed's data: its newest alert arrived after the anchor.
    const newest = JSON.parse(Buffer.from(liveAnswers[0]!.body, 'base64').toString('utf8'))[0];
    expect(Date.parse(newest.created_at)).toBeGreaterThan(EARLIEST_ANCHOR);
    expect(Number(liveAnswers[3]!.headers['x-total-count'])).toBeGreaterThan(0);
  });
});

afterAll(() => {
  for (const child of children) stop(child);
  rmSync(FILE_DIR, { recursive: true, force: true });
});

describe.each(Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[])('%s', (name) => {
  const { script, tool, files } = RUNTIMES[name];
  const absent = missingTool(tool);
  if (absent) {
    it.skip(`(skipped: ${absent})`, () => undefined);
    return;
  }
  beforeAll(async () => {
    [started[name]] = await startAll([npm(script, DATA)]);
  }, 240_000);
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

  // Started after the main server's checks and its contract run, and stopped after their own tests: a
  // runtime's servers all at once (three or four wrangler dev, each a Node proxy and a workerd) slowed
  // the contract run past its per-request timeout on a busy machine.
  describe('started with a data file, faults or a rate limit', () => {
    let withFile: Started | undefined;
    let withFaults: Started | undefined;
    let limited: Started | undefined;
    let frozen: Started | undefined;
    beforeAll(async () => {
      stop(started[name]);
      const options = [FAULTS, ['--rate-limit', '2'], LIVE, ...(files ? [['--data', FILE]] : [])];
      [withFaults, limited, frozen, withFile] = await startAll(options.map((args) => npm(script, args)));
    }, 240_000);
    afterAll(() => {
      for (const server of [withFaults, limited, frozen, withFile]) stop(server);
    });

    it('in live mode at a frozen --clock, answers as Node does, byte for byte', async () => {
      expect(liveAnswers).toHaveLength(LIVE_PATHS.length);
      expect(await answers(frozen!.url, LIVE_PATHS)).toEqual(liveAnswers);
    });

    it('with --error-rate 0.5 and a seed, answers the same requests in the same order as Node: statuses and bodies', async () => {
      const expected = faultAnswers;
      expect(expected).toHaveLength(SEQUENCES.length);
      expect(await answers(withFaults!.url, SEQUENCES)).toEqual(expected);
      // The sequence sees both: served pages and injected faults.
      const statuses = new Set(expected.map((a) => a.status));
      expect(statuses).toContain(200);
      expect([...statuses].some((status) => status === 500 || status === 503)).toBe(true);
    });

    it('with --rate-limit 2, answers the third quick request with 429 and Retry-After', async () => {
      const origin = limited!.url;
      // A request without a key makes a Worker's app and counts for no key (the limit comes after auth).
      expect((await fetch(`${origin}/alert`)).status).toBe(401);
      // The limit counts per second of the clock. Three requests are judged only when they began and ended
      // within one second of this machine's clock (the server's too): on a loaded machine that may take
      // another try, never a verdict on requests that straddled two seconds.
      let quick: Response[] | undefined;
      for (let tries = 0; tries < 5 && !quick; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
        const second = Math.floor(Date.now() / 1000);
        const sent: Response[] = [];
        for (let i = 0; i < 3; i += 1) sent.push(await fetch(`${origin}/alert?pageSize=1`, { headers: { 'x-api-key': KEY } }));
        if (Math.floor(Date.now() / 1000) === second) quick = sent;
      }
      if (!quick) throw new Error('no three requests fitted within one second in five tries');
      expect(quick.map((response) => response.status)).toEqual([200, 200, 429]);
      expect(quick[2]!.headers.get('retry-after')).toBe('1');
      expect(quick[2]!.headers.get('content-type')).toBe('application/problem+json');
    });

    it.runIf(files)('with --data FILE, answers as Node with the same file', async () => {
      const paths = ['/alert', '/alert?pageSize=7&page=2', '/sensor?pageSize=100', '/alert?search=a', '/sensor?search=zzqxjvv'];
      const expected = await answers(nodeData!.url, paths);
      expect(await answers(withFile!.url, paths)).toEqual(expected);
      expect(expected[0]!.headers['x-total-count']).toBe('40');
      expect(expected[2]!.headers['x-total-count']).toBe('12');
    });
  });
});
