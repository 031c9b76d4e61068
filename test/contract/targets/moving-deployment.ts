// Deployments whose data moves in real time, each in a child process of its own, shaped like real ones: replicas
// behind a balancer, a search index refreshed apart from the records, a sliding window, records edited in place,
// alerts resolved and gone from the middle of the listing;
// and broken ones that look alike. A new alert arrives every `everyMs` from the start. Auth, validation and errors
// are the mock's; a 200 listing's body and X-Total-Count are the page of the records the deployment holds then
// (search: a case-insensitive substring of any string field, as the spec assumes).
//
// Run as a script (`node --import tsx moving-deployment.ts SHAPE OPTIONS_JSON`) it prints its URL; `startDeployment`
// does that from a test and stops it afterwards.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { generateDataset } from '../../../src/fixtures/generate-dataset.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { loadSpec } from '../../../src/spec/load-spec.ts';
import { listOperations } from '../../../src/spec/operations.ts';
import { listingParameters } from '../../../src/spec/listing-parameters.ts';

type Json = Record<string, unknown>;

/** How a deployment is shaped: a conformant one like a real deployment, or a fault that looks alike. */
export type Shape =
  | 'single'
  | 'replicas'
  | 'pinned'
  | 'index'
  | 'sliding'
  | 'editing'
  | 'resolving'
  | 'other-term'
  | 'search-after-paging'
  | 'unfiltered-later-pages'
  | 'count-off'
  | 'overlap';

/** The deployment's figures. */
export interface DeploymentOptions {
  readonly seed?: number;
  /** Records at the start, and records still to arrive, of the first listing; the others stand still. */
  readonly records?: number;
  readonly arriving?: number;
  readonly everyMs?: number;
  /** For `index`: how often the search index is refreshed. */
  readonly refreshMs?: number;
}

const spec = loadSpec();
const [first] = listOperations(spec.document).filter((op) => op.method === 'get');
const parameters = listingParameters(first!);
const matches = (record: Json, term: string) =>
  term === '' ||
  Object.values(record).some((value) =>
    (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.toLowerCase().includes(term.toLowerCase())),
  );

/** The request handler of a deployment: the records it holds at `ms` after its start, for a request on `connection`. */
function deployment(shape: Shape, options: DeploymentOptions) {
  const { seed = 1, records = 300, arriving = 2_000, everyMs = 250, refreshMs = 1_000 } = options;
  const key = first!.collection.key;
  const data = generateDataset(spec.document, { seed, counts: { [key]: records + arriving } }) as Record<string, Json[]>;
  const mock = createApp({ spec, dataset: { seed: 3, counts: { [key]: 5 } } });
  const started = performance.now();
  const arrived = (ms: number) => Math.min(arriving, Math.floor(ms / everyMs));
  /** The first listing's records after `n` arrivals, newest first. */
  const held = (n: number, now: number): Json[] => {
    const from = arriving - n;
    const list = data[key]!.slice(from, shape === 'sliding' ? from + records : undefined);
    if (shape === 'resolving') {
      // Each second an alert from the middle of those standing at the start is resolved and leaves the listing.
      const gone = new Set(data[key]!.slice(arriving + 40, arriving + 40 + Math.floor(now / 1_000) * 7).filter((_, i) => i % 7 === 0));
      return list.filter((r) => !gone.has(r));
    }
    if (shape !== 'editing') return list;
    // One record in ten has its updated_at moved every second, in place.
    const tick = Math.floor(now / 1_000);
    return list.map((r, i) => (i % 10 === 3 ? { ...r, updated_at: new Date(Date.UTC(2026, 10, 1) + tick * 1_000).toISOString() } : r));
  };
  let requests = 0;
  return async (request: Request, connection: number): Promise<Response> => {
    const response = await mock.fetch(request);
    const url = new URL(request.url);
    if (response.status !== 200 || url.pathname !== first!.path) return response;
    const now = performance.now() - started;
    requests += 1;
    const behind = shape === 'replicas' ? requests % 2 : shape === 'pinned' ? connection % 2 : 0;
    const n = Math.max(0, arrived(now) - behind);
    const term = url.searchParams.get(parameters.search.name) ?? '';
    const page = Number(url.searchParams.get(parameters.page.name) ?? parameters.page.schema.default);
    const size = Number(url.searchParams.get(parameters.pageSize.name) ?? parameters.pageSize.schema.default);
    const body = served(shape, { now: held(n, now), indexed: held(arrived(now - (now % refreshMs)), now), term, page, size });
    const headers = new Headers(response.headers);
    headers.delete('link');
    headers.delete('etag');
    headers.set('x-total-count', String(body.count));
    return new Response(JSON.stringify(body.records), { status: 200, headers });
  };
}

let lastTerm = '';

/** What a deployment of `shape` answers for a page of `term`, from the records it holds now and those its index holds. */
function served(
  shape: Shape,
  { now, indexed, term, page, size }: { now: Json[]; indexed: Json[]; term: string; page: number; size: number },
): { records: Json[]; count: number } {
  const slice = (list: Json[]) => list.slice((page - 1) * size, page * size);
  // A search index refreshed apart: it finds what the records held at its last refresh, returned as they are now.
  const hits = shape === 'index' && term !== '' ? new Set(indexed.filter((r) => matches(r, term)).map((r) => r.id)) : undefined;
  const found = hits ? now.filter((r) => hits.has(r.id)) : now.filter((r) => matches(r, term));
  switch (shape) {
    case 'other-term': {
      // A search result cache keyed without the term: each search answered with the search before it.
      const answer = term === '' ? found : now.filter((r) => matches(r, lastTerm));
      if (term !== '') lastTerm = term;
      return { records: slice(answer), count: answer.length };
    }
    case 'search-after-paging':
      return { records: slice(now).filter((r) => matches(r, term)), count: found.length };
    case 'unfiltered-later-pages':
      return { records: slice(page > 1 ? now : found), count: found.length };
    case 'count-off':
      return { records: slice(found), count: Math.max(0, found.length - 1) };
    case 'overlap': {
      const start = Math.max(0, (page - 1) * size - (page > 1 ? 1 : 0));
      return { records: found.slice(start, start + size), count: found.length };
    }
    default:
      return { records: slice(found), count: found.length };
  }
}

/** Serves `shape` on 127.0.0.1 (a free port): resolves with its URL. */
function serveDeployment(shape: Shape, options: DeploymentOptions): Promise<string> {
  const handle = deployment(shape, options);
  const connections = new WeakMap<Socket, number>();
  let opened = 0;
  const server = createServer((incoming: IncomingMessage, outgoing) => {
    const connection = connections.get(incoming.socket) ?? opened++;
    connections.set(incoming.socket, connection);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    handle(new Request(`http://${incoming.headers.host}${incoming.url}`, { headers }), connection)
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        outgoing.writeHead(500, { 'content-type': 'text/plain' });
        outgoing.end(String(error));
      });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** A deployment running in a child process: its URL, and how to stop it. */
export interface Deployment {
  readonly url: string;
  stop(): void;
}

/**
 * Starts a deployment of `shape` in a child process of its own and resolves once it listens.
 *
 * @example
 * const deployment = await startDeployment('replicas', { seed: 3 });
 * try { await runContract({ target: deployment.url, ... }); } finally { deployment.stop(); }
 */
export function startDeployment(shape: Shape, options: DeploymentOptions = {}): Promise<Deployment> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), shape, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${shape} deployment exited with ${code}`)));
    child.stdout!.setEncoding('utf8').once('data', (line: string) => resolve({ url: line.trim(), stop: () => child.kill() }));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = await serveDeployment(process.argv[2] as Shape, JSON.parse(process.argv[3] ?? '{}') as DeploymentOptions);
  process.stdout.write(`${url}\n`);
}
