// The mock, over real HTTP (the node:http listener `tempmon serve` runs, fast path included), judged by a
// validator none of us wrote: Prism's proxy of spec/openapi.yaml. A corpus of requests (both listings,
// paging and search edges, If-None-Match, every Prefer the mock honours, bad parameters, no key, a wrong
// key, HEAD, a CORS preflight) goes through three proxies:
//   strict    `prism proxy --errors`: a response violation marked error becomes Prism's own 500 problem
//             with a `validation` list; every violation, warnings included (an undocumented status), is
//             listed in the `sl-violations` header. Prism refuses invalid requests itself (422, and 401
//             for a missing key: its security check runs in any case), so those never reach the mock;
//   lenient   `prism proxy --validate-request=false` (no --errors, so a missing key is forwarded too):
//             the mock answers every request, and Prism lists what it finds in `sl-violations`;
//   scenarios `prism proxy --errors` in front of a mock with a rate limit and injected faults, for the
//             429, 500 and 503 the mock sends of itself.
// Both signals are checked, and so is what Prism does not check: every header the mock sends on an
// operation's response is documented for that status. Exempt, as not the operations' responses: what
// Prism routes to no operation (unknown paths, HEAD, OPTIONS: the spec has GET operations only).
import type { ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationObject, ReferenceObject, ResponseObject } from 'openapi3-ts/oas31';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/server/create-app.ts';
import { nodeListener } from '../../src/server/node-listener.ts';
import { resolveRef } from '../../src/spec/resolve-ref.ts';
import { targetView } from '../../src/spec/target-view.ts';
import { KEY, spec } from '../helpers.ts';
import { startPrism } from '../prism-cli.ts';

const PRISM_ERROR = 'https://stoplight.io/prism/errors#';
const LISTINGS = ['/alert', '/sensor'] as const;

/** Headers every HTTP response may carry, which no OpenAPI document lists per response. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

// --- processes -------------------------------------------------------------------------------------

const children: ChildProcess[] = [];
const servers: Server[] = [];

/** `prism proxy spec/openapi.yaml <upstream> <flags>` on a free port; resolves with its URL once it listens. */
async function startProxy(upstream: string, flags: readonly string[]): Promise<{ url: string }> {
  // --cors=false: Prism would otherwise answer preflights itself and put its own CORS headers on the mock's answers.
  const { url, child } = await startPrism('proxy', { upstream, flags: ['--cors=false', ...flags] });
  children.push(child);
  return { url };
}

/** A mock served by the listener `tempmon serve` uses, on a free port of 127.0.0.1. */
async function startMock(options: Parameters<typeof createMock>[0]): Promise<string> {
  const server = createServer(nodeListener(createMock({ spec, ...options })));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// --- requests --------------------------------------------------------------------------------------

interface Answer {
  readonly status: number;
  /** Lower-cased names; a repeated header joined with `, ` (as node:http does). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One request with exactly the given headers (node:http adds only Host and Connection). */
function send(base: string, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const all: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) all[name] = [value].flat().join(', ');
        resolve({ status: res.statusCode!, headers: all, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

interface Probe {
  readonly name: string;
  readonly method: 'GET' | 'HEAD' | 'OPTIONS';
  readonly path: string;
  readonly headers: Record<string, string>;
  /** The spec itself refuses the request (a bad parameter, no key): Prism's request validation may answer it. */
  readonly invalid?: boolean;
  /** Not an operation of the spec (unknown path, HEAD, OPTIONS): its answers are exempt. */
  readonly outside?: boolean;
}

const keyed = (extra: Record<string, string> = {}): Record<string, string> => ({ 'x-api-key': KEY, ...extra });

/** The statuses a client can force on `path` (with Prefer: code= or ?__code=): the documented errors. */
const forcible = (path: string) =>
  Object.keys((spec.document.paths![path]!.get as OperationObject).responses!)
    .map(Number)
    .filter((status) => status >= 400);

/** The corpus for one listing; ETags are asked of the mock first, so that If-None-Match can match. */
async function listingCorpus(mock: string, path: string): Promise<Probe[]> {
  const etag = async (query: string, headers: Record<string, string> = {}) =>
    (await send(mock, 'GET', `${path}${query}`, keyed(headers))).headers.etag!;
  const first = await send(mock, 'GET', `${path}?pageSize=7`, keyed());
  const last = Math.ceil(Number(first.headers['x-total-count']) / 7);
  const tag = first.headers.etag!;
  const emptyTag = await etag('', { prefer: 'example=empty' });
  const hit = path === '/alert' ? 'PH28' : 'CT';
  const get = (name: string, query: string, headers = keyed(), extra: Partial<Probe> = {}): Probe => ({
    name: `${path} ${name}`,
    method: 'GET',
    path: `${path}${query}`,
    headers,
    ...extra,
  });
  const invalid = { invalid: true };
  return [
    // Pages, page sizes and searches.
    get('default page', ''),
    get('page=1', '?page=1'),
    get('page=2&pageSize=1', '?page=2&pageSize=1'),
    get('pageSize=1', '?pageSize=1'),
    get('pageSize=100', '?pageSize=100'),
    get('last page', `?page=${last}&pageSize=7`),
    get('page past the end', '?page=999999'),
    get('page beyond 2^53', '?page=9007199254740993&pageSize=100'),
    get('search hit', `?search=${hit}`),
    get('search hit, page 2 of 5', `?search=${hit.toLowerCase()}&page=2&pageSize=5`),
    get('search miss', '?search=no-such-term-zz'),
    get('empty search', '?search='),
    get('non-ASCII search', `?search=${encodeURIComponent('Größe ✓')}`),
    get('search for the key (Link left out)', `?search=${KEY}`),
    get('unknown parameter ignored', '?utm_source=x&pageSize=3'),
    get('with Origin (CORS)', '?pageSize=2', keyed({ origin: 'https://app.example' })),
    // Conditional requests.
    get('If-None-Match matching', '?pageSize=7', keyed({ 'if-none-match': tag })),
    get('If-None-Match weak', '?pageSize=7', keyed({ 'if-none-match': `W/${tag}` })),
    get('If-None-Match list', '?pageSize=7', keyed({ 'if-none-match': `"other", ${tag}` })),
    get('If-None-Match *', '', keyed({ 'if-none-match': '*' })),
    get('If-None-Match not matching', '?pageSize=7', keyed({ 'if-none-match': '"not-this-one"' })),
    get('If-None-Match matching, page changed', '?pageSize=8', keyed({ 'if-none-match': tag })),
    get('If-None-Match with Prefer: example=empty', '', keyed({ 'if-none-match': emptyTag, prefer: 'example=empty' })),
    // Preferences.
    get('Prefer: example=empty', '', keyed({ prefer: 'example=empty' })),
    get('Prefer: delay=5', '?pageSize=3', keyed({ prefer: 'delay=5' })),
    get('Prefer: delay=5, example=empty', '', keyed({ prefer: 'delay=5, example=empty' })),
    ...forcible(path).flatMap((code) => [
      get(`Prefer: code=${code}`, '', keyed({ prefer: `code=${code}` })),
      get(`?__code=${code}`, `?__code=${code}`),
      get(`Prefer: code=${code}, delay=5`, '?pageSize=2', keyed({ prefer: `code=${code}, delay=5` })),
      get(`Prefer: code=${code}, wrong key`, '', { 'x-api-key': 'not-a-key', prefer: `code=${code}` }),
      get(`?__code=${code}, no key`, `?__code=${code}`, {}, invalid),
    ]),
    get('Prefer: code=200 (not forcible: ignored)', '', keyed({ prefer: 'code=200' })),
    get('Prefer: code=418 (undocumented: ignored)', '', keyed({ prefer: 'code=418' })),
    // Not `Prefer: code=abc`: Prism reads Prefer itself (its mock's conventions) and answers 422 in either
    // mode, so it never reaches the mock (which ignores it).
    get('?__code=304 (not forcible: ignored)', '?__code=304'),
    get('malformed Prefer ignored', '', keyed({ prefer: '=;;,,"' })),
    // Bad parameters.
    get('page=0', '?page=0', keyed(), invalid),
    get('page=-1', '?page=-1', keyed(), invalid),
    get('page=x', '?page=x', keyed(), invalid),
    get('page= (empty)', '?page=', keyed(), invalid),
    get('pageSize=0', '?pageSize=0', keyed(), invalid),
    get('pageSize=101', '?pageSize=101', keyed(), invalid),
    get('pageSize=1.5', '?pageSize=1.5', keyed(), invalid),
    get('page repeated', '?page=1&page=2', keyed(), invalid),
    get('two bad parameters', '?page=0&pageSize=500', keyed(), invalid),
    get('bad parameter with Prefer: delay=5', '?page=0', keyed({ prefer: 'delay=5' }), invalid),
    // Keys.
    get('no key', '', {}, invalid),
    get('empty key', '', { 'x-api-key': '' }, invalid),
    get('wrong key', '', { 'x-api-key': 'not-a-key' }),
    get('wrong key, bad parameter', '?page=0', { 'x-api-key': 'not-a-key' }, invalid),
    get('key in the wrong header', '', { authorization: `Bearer ${KEY}` }, invalid),
    // Not operations of the spec.
    { name: `HEAD ${path}`, method: 'HEAD', path, headers: keyed(), outside: true },
    {
      name: `OPTIONS ${path} (CORS preflight)`,
      method: 'OPTIONS',
      path,
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key, prefer',
      },
      outside: true,
    },
    get('unknown path', 's', keyed(), { outside: true }),
  ];
}

// --- judging ---------------------------------------------------------------------------------------

interface Judged {
  readonly probe: Probe;
  readonly proxy: string;
  readonly answer: Answer;
  /** Prism's problem type, when Prism answered itself rather than forwarding the mock's answer. */
  readonly byPrism?: string;
  /** Every violation Prism reported: the `sl-violations` header and, with --errors, its 500 problem's `validation`. */
  readonly violations: readonly unknown[];
  /** Headers of the mock's answer that the spec does not document for its status. */
  readonly undocumented: readonly string[];
}

function prismProblem(answer: Answer): { type: string; validation?: unknown[] } | undefined {
  if (!answer.headers['content-type']?.includes('json')) return undefined;
  try {
    const body = JSON.parse(answer.body) as { type?: unknown; validation?: unknown[] };
    return typeof body.type === 'string' && body.type.startsWith(PRISM_ERROR) ? (body as { type: string }) : undefined;
  } catch {
    return undefined;
  }
}

function slViolations(answer: Answer): unknown[] {
  const header = answer.headers['sl-violations'];
  if (header === undefined) return [];
  try {
    return JSON.parse(header) as unknown[];
  } catch {
    return [header]; // "Too many violations! ..."
  }
}

/** Lower-cased names of the headers the spec documents for `status` on the GET operation at `path`. */
function documentedHeaders(path: string, status: number): Set<string> | undefined {
  const operation = spec.document.paths![path]?.get as OperationObject | undefined;
  const response = operation?.responses?.[String(status)] as ResponseObject | ReferenceObject | undefined;
  if (!response) return undefined;
  const headers = resolveRef<ResponseObject>(spec.document, response).headers ?? {};
  return new Set(Object.keys(headers).map((name) => name.toLowerCase()));
}

function judge(probe: Probe, proxy: string, answer: Answer): Judged {
  const problem = prismProblem(answer);
  const byPrism = problem?.type.slice(PRISM_ERROR.length);
  const reported = [...slViolations(answer), ...(byPrism === 'VIOLATIONS' ? (problem?.validation ?? [problem]) : [])];
  // Prism's verdict on a request the spec refuses (its security check runs even with --validate-request=false).
  const violations = probe.invalid ? reported.filter((v) => (v as { location?: string[] }).location?.[0] !== 'request') : reported;
  const operationPath = new URL(probe.path, 'http://x').pathname;
  const documented = probe.outside || byPrism ? undefined : documentedHeaders(operationPath, answer.status);
  const undocumented = documented
    ? Object.keys(answer.headers).filter((name) => !TRANSPORT_HEADERS.has(name) && name !== 'sl-violations' && !documented.has(name))
    : [];
  return { probe, proxy, answer, ...(byPrism ? { byPrism } : {}), violations, undocumented };
}

const show = (j: Judged) =>
  `${j.proxy}: ${j.probe.name} -> ${j.answer.status}${j.byPrism ? ` (Prism: ${j.byPrism})` : ''} ${JSON.stringify(j.violations)}${
    j.undocumented.length ? ` undocumented: ${j.undocumented.join(', ')}` : ''
  }`;

// --- the run ---------------------------------------------------------------------------------------

const judged: Judged[] = [];
let corpus: Probe[] = [];

beforeAll(async () => {
  const mock = await startMock({ dataset: { seed: 11, counts: { alerts: 120, sensors: 45 } } });
  const keys = Array.from({ length: 12 }, (_, i) => `burst-key-${i}`);
  // 2 requests a second per key, and a fault injected in half of those that pass.
  const faulty = await startMock({
    apiKeys: keys,
    dataset: { seed: 11, counts: { alerts: 30, sensors: 30 } },
    scenarios: { rateLimit: 2, errorRate: 0.5, seed: 5 },
  });
  const [strict, lenient, scenarios] = await Promise.all([
    startProxy(mock, ['--errors']),
    startProxy(mock, ['--validate-request=false']),
    startProxy(faulty, ['--errors']),
  ]);
  corpus = (await Promise.all(LISTINGS.map((path) => listingCorpus(mock, path)))).flat();
  for (const probe of corpus) {
    for (const [proxy, base] of [
      ['strict', strict.url],
      ['lenient', lenient.url],
    ] as const) {
      judged.push(judge(probe, proxy, await send(base, probe.method, probe.path, probe.headers)));
    }
  }
  // Live mode's own header (Tempmon-Moment), on a 200 and on a 304, from a mock on a frozen clock.
  const live = await startProxy(
    await startMock({ dataset: { seed: 11, counts: { alerts: 30, sensors: 30 } }, live: { clock: Date.parse('2026-11-02T09:00:00Z') } }),
    ['--errors'],
  );
  for (const path of LISTINGS) {
    const first: Probe = { name: `${path} live`, method: 'GET', path, headers: { 'x-api-key': KEY } };
    const answer = await send(live.url, first.method, first.path, first.headers);
    judged.push(judge(first, 'strict', answer));
    const again: Probe = {
      ...first,
      name: `${path} live, If-None-Match`,
      headers: { ...first.headers, 'if-none-match': answer.headers.etag ?? '' },
    };
    judged.push(judge(again, 'strict', await send(live.url, again.method, again.path, again.headers)));
  }
  // Four quick requests per key and listing: past the second in a second they get 429, and the others may get a fault.
  for (const key of keys) {
    for (const path of LISTINGS) {
      const probes = [1, 2, 3, 4].map((n): Probe => ({ name: `${path} burst ${n}`, method: 'GET', path, headers: { 'x-api-key': key } }));
      for (const probe of probes)
        judged.push(judge(probe, 'scenarios', await send(scenarios.url, probe.method, probe.path, probe.headers)));
    }
  }
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("the mock through Prism's validating proxy", () => {
  it('breaks its own spec nowhere: no violation in either signal, on any response of the operations', () => {
    const inside = judged.filter((j) => !j.probe.outside);
    expect(inside.length).toBeGreaterThan(200);
    expect(inside.filter((j) => j.violations.length > 0).map(show)).toEqual([]);
  });

  it('sends no header the spec does not document for the status (Prism does not check that)', () => {
    expect(judged.filter((j) => j.undocumented.length > 0).map(show)).toEqual([]);
  });

  it('gets every valid request past the strict proxy, and only invalid ones refused by Prism itself', () => {
    const strict = judged.filter((j) => j.proxy === 'strict' && !j.probe.outside);
    expect(strict.filter((j) => !j.probe.invalid && j.byPrism).map(show)).toEqual([]);
    const refusals = new Set(strict.filter((j) => j.byPrism).map((j) => j.byPrism));
    expect(
      [...refusals].every((type) => type === 'UNPROCESSABLE_ENTITY' || type === 'UNAUTHORIZED'),
      [...refusals].join(),
    ).toBe(true);
    // The lenient proxy forwards everything, so the mock's own 400s and 401s are judged too.
    expect(judged.filter((j) => j.proxy === 'lenient' && !j.probe.outside && j.byPrism).map(show)).toEqual([]);
  });

  it('exercises every documented status and every documented header of both listings', () => {
    for (const path of LISTINGS) {
      const mine = judged.filter((j) => !j.probe.outside && !j.byPrism && new URL(j.probe.path, 'http://x').pathname === path);
      const responses = (spec.document.paths![path]!.get as OperationObject).responses!;
      expect(new Set(mine.map((j) => String(j.answer.status))), path).toEqual(new Set(Object.keys(responses)));
      for (const status of Object.keys(responses)) {
        const seen = new Set(mine.filter((j) => String(j.answer.status) === status).flatMap((j) => Object.keys(j.answer.headers)));
        const documented = resolveRef<ResponseObject>(spec.document, responses[status]!).headers ?? {};
        for (const name of Object.keys(documented)) {
          expect.soft(seen.has(name.toLowerCase()), `${path} ${status} never sent ${name}`).toBe(true);
        }
      }
    }
  });

  it('holds a server under test to ETag and 304, not to the mock-only Preference-Applied and CORS headers', () => {
    const view = targetView(spec.document);
    for (const path of LISTINGS) {
      const responses = (view.paths![path]!.get as OperationObject).responses!;
      expect(Object.keys(responses)).toContain('304');
      expect(Object.keys((responses['200'] as ResponseObject).headers!)).toEqual(['X-Total-Count', 'Link', 'ETag']);
    }
    expect(Object.keys(view.components!.headers!)).not.toContain('Preference-Applied');
    expect(Object.keys((view.components!.responses!.NotModified as ResponseObject).headers!)).toEqual(['ETag', 'X-Total-Count', 'Link']);
  });

  it('treats what is not an operation as outside the spec: Prism routes HEAD, OPTIONS and unknown paths to none', () => {
    const outside = judged.filter((j) => j.proxy === 'strict' && j.probe.outside);
    expect(outside.map((j) => [j.probe.name, j.answer.status, j.byPrism])).toEqual(
      outside.map((j) => {
        if (j.probe.method === 'GET') return [j.probe.name, 404, 'NO_PATH_MATCHED_ERROR'];
        // Prism's 405 to a HEAD has no body to name its type; the mock would have answered 200.
        return [j.probe.name, 405, j.probe.method === 'HEAD' ? undefined : 'NO_METHOD_MATCHED_ERROR'];
      }),
    );
  });
});
