import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvHttpProxyAgent } from 'undici';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEADLINE_REACHED } from '../../../src/contract/client/attempt.ts';
import { createHttpClient, type HttpClientOptions } from '../../../src/contract/client/http-client.ts';
import { describeNetworkError } from '../../../src/contract/client/network-error.ts';
import { MAX_RETRY_WAIT_MS, retryDelay } from '../../../src/contract/client/retry-delay.ts';
import { closedTarget } from '../../closed-target.ts';
import { answerJson, onFakeClock, settle } from './fake-clock.ts';

const KEY = 'sk_live_4f9a2b7c1d3e5a6b'; // long enough for the fragment rule
const MiB = 1024 * 1024;
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A node:http server on a free loopback port (or `port`). */
async function listen(handler: Handler, port = 0, server: Server = createServer(handler)): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const client = (target: string, extra: Partial<HttpClientOptions> = {}) =>
  createHttpClient({ target, apiKey: KEY, apiKeyHeader: 'x-api-key', timeoutMs: 5_000, maxBodyBytes: 16 * MiB, ...extra });

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

/** A 200 JSON body that never ends, written as fast as the client reads; `bytes` gets what each request was sent. */
function endless(bytes: number[]): Handler {
  const chunk = Buffer.from(`${JSON.stringify({ id: 'a', note: 'x'.repeat(200) })},`.repeat(256));
  return (_request, response) => {
    const index = bytes.push(0) - 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('[');
    const pump = () => {
      while (!response.destroyed) {
        bytes[index]! += chunk.byteLength;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
    };
    response.on('error', () => undefined);
    pump();
  };
}

describe('bodies: capped, cut once, the timeout covers them', () => {
  it('reads one endless body up to the full cap, later ones only up to the small cap, without growing memory', async () => {
    const bytes: number[] = [];
    const target = await listen(endless(bytes));
    const http = client(target);
    const first = await http.send('listAlerts', '/alert', {});
    expect(first.error).toBe(`body larger than ${16 * MiB} bytes; reading stopped`);
    expect(first.response?.status).toBe(200);
    expect(first.response?.json).toBeUndefined();
    expect(first.response?.text.length).toBeLessThanOrEqual(4096);
    expect(first.response?.text.startsWith('[{"id":"a"')).toBe(true);
    expect(bytes[0]).toBeGreaterThan(16 * MiB);

    const kept = [first];
    for (let i = 0; i < 3; i += 1) kept.push(await http.send('listAlerts', '/alert', { page: String(i) }));
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < 40; i += 1) kept.push(await http.send('listAlerts', '/alert', { page: String(i) }));
    const growth = process.memoryUsage().rss - rssBefore;

    for (const exchange of kept.slice(1)) {
      expect(exchange.error).toMatch(
        /^body larger than 65536 bytes; reading stopped \(after a body over 16777216 bytes earlier in this run/,
      );
      expect(exchange.response?.text.length).toBeLessThanOrEqual(4096);
    }
    // Each later request got at most the small cap plus what sat in socket buffers: far below the full cap.
    for (const sent of bytes.slice(1)) expect(sent).toBeLessThan(8 * MiB);
    expect(growth).toBeLessThan(64 * MiB);
    expect(http.stats).toEqual({ sent: 44, retried: 0, cut: 44 });
  });

  it('reads past the small cap one body at a time: of requests sent together, one endless body is read to the full cap', async () => {
    const bytes: number[] = [];
    const http = client(await listen(endless(bytes)), { concurrency: 8 });
    const asks = Array.from({ length: 6 }, (_, i) => ({ path: '/alert', query: { page: String(i + 1) } }));
    const exchanges = await Promise.all(http.sendTogether('listAlerts', asks));
    const full = exchanges.filter((e) => e.error === `body larger than ${16 * MiB} bytes; reading stopped`);
    expect(full).toHaveLength(1);
    for (const exchange of exchanges.filter((e) => !full.includes(e))) expect(exchange.error).toMatch(/^body larger than 65536 bytes/);
    expect(bytes.filter((sent) => sent > 8 * MiB)).toHaveLength(1);
    // And a connection of its own knows it too.
    const [alone] = await http.sendOnOneConnection!('listAlerts', [{ path: '/alert', query: {} }]);
    expect(alone!.error).toMatch(/^body larger than 65536 bytes/);
  });

  it('a kept-alive connection the target closed as the request went out: sent again; closed on a new connection, the error stands', async () => {
    /** Answers the first request on each connection and resets the connection at the next; `every`: a new one's too. */
    const closingIdle = (every: boolean) => {
      const seen = { requests: 0, connections: new Set<object>() };
      const handler: Handler = (request, response) => {
        seen.requests += 1;
        const fresh = !seen.connections.has(request.socket);
        seen.connections.add(request.socket);
        if (fresh && (!every || seen.requests === 1)) json(response, 200, [{ id: 'a' }], { connection: 'keep-alive' });
        else request.socket.resetAndDestroy();
      };
      return { seen, handler };
    };
    const idle = closingIdle(false);
    const http = client(await listen(idle.handler));
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await http.send('listAlerts', '/alert', {}));
    expect(answers.map((e) => e.response?.status ?? e.error)).toEqual(answers.map(() => 200));
    // Some went on a kept-alive connection first, which was closed unanswered: the target saw them twice.
    expect(idle.seen.requests).toBeGreaterThan(6);
    // A target closing every connection at its request but the first: the request on a new connection fails too.
    const always = closingIdle(true);
    const strict = client(await listen(always.handler));
    await strict.send('listAlerts', '/alert', {});
    const closed = await strict.send('listAlerts', '/alert', {});
    expect(closed.error).toMatch(/^connection closed by the target/);
    expect(always.seen.requests).toBeLessThanOrEqual(3);
  });

  it('reads bodies over the small cap and under the full one whole, one after another', async () => {
    const page = JSON.stringify([{ id: 'a', note: 'x'.repeat(3 * MiB) }]);
    const target = await listen((_request, response) => json(response, 200, JSON.parse(page)));
    const http = client(target, { concurrency: 4 });
    const exchanges = await Promise.all(
      http.sendTogether(
        'listAlerts',
        [0, 1, 2].map(() => ({ path: '/alert', query: {} })),
      ),
    );
    expect(exchanges.map((e) => [e.error, e.response?.text.length])).toEqual([0, 1, 2].map(() => [undefined, page.length]));
  });

  it('a body still coming at the timeout past the small cap is a body without end, not a timeout: never sent again alone', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const target = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      // Slow: 64 KiB every 10 ms, about 6 MB/s, never reaching the full cap within the timeout.
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write(chunk)), 10);
      response.on('close', () => clearInterval(timer));
    });
    const http = client(target, { timeoutMs: 800, concurrency: 4 });
    const exchanges = await Promise.all(
      http.sendTogether(
        'listAlerts',
        [0, 1].map(() => ({ path: '/alert', query: {} })),
      ),
    );
    // The one that read on past the small cap; the other waited its turn there, and is cut at once (or at its own
    // timeout, if that came first: a body past the small cap still, never a timeout).
    const late = 'body larger than N bytes and still coming after 800 ms (past N bytes, a body without end at this speed); reading stopped';
    const cut =
      'body larger than N bytes; reading stopped (after a body still coming after 800 ms past N bytes earlier in this run, later ones are read only up to N)';
    const errors = exchanges.map((e) => e.error!.replace(/\d{5,}/g, 'N'));
    expect(errors).toContain(late);
    for (const error of errors) expect([late, cut]).toContain(error);
    for (const exchange of exchanges) expect(exchange.firstUnderLoad).toBeUndefined();
    expect(http.timing!.report().sentAgainAlone).toMatchObject({ answered: 0, failedAlone: 0, notSent: 0 });
    expect(http.timing!.report().kinds.every((k) => k.failed === 0)).toBe(true);
    // Later bodies are read to the small cap only.
    const later = await http.send('listAlerts', '/alert', {});
    expect(later.error).toMatch(/^body larger than 65536 bytes; reading stopped \(after a body still coming/);
  });

  it('trusts a declared Content-Length over the cap: reads only the head', async () => {
    const bytes: number[] = [];
    const pump = endless(bytes);
    const target = await listen((request, response) => {
      response.setHeader('content-length', String(100 * MiB));
      pump(request, response);
    });
    const exchange = await client(target, { maxBodyBytes: 4 * MiB }).send('listAlerts', '/alert', {});
    expect(exchange.error).toBe(`body larger than ${4 * MiB} bytes; reading stopped`);
    expect(bytes[0]).toBeLessThan(4 * MiB);
  });

  it('cuts a target that hangs mid-body at the timeout', async () => {
    const target = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[{"id":');
    });
    const started = performance.now();
    const exchange = await client(target, { timeoutMs: 300 }).send('listAlerts', '/alert', {});
    expect(exchange).toMatchObject({ error: 'no complete response within 300 ms' });
    expect(exchange.response).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('reads a complete body, parses it, and records redacted text and json', async () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const target = await listen((request, response) => {
      const key = String(request.headers['x-api-key']);
      const detail = `this request was refused for a reason we explain at length: ${key}`;
      // The key in a header's name too (a header name may hold every character of this key).
      response.writeHead(200, { 'content-type': 'application/json', 'x-echo': key, [`x-echo-${key}`]: 'name' });
      response.end(`[{"id":"a1","detail":${JSON.stringify(detail)},"escaped":"${escaped}","${key}":1}]`);
    });
    const exchange = await client(target).send('listAlerts', '/alert', { search: 'x' });
    const text = exchange.response!.text;
    expect(text).toContain('at length: $TEMPMON_API_KEY');
    expect(text).toContain('"escaped":"$TEMPMON_API_KEY"');
    expect(exchange.response!.json).toEqual([
      {
        id: 'a1',
        detail: 'this request was refused for a reason we explain at length: $TEMPMON_API_KEY',
        escaped: '$TEMPMON_API_KEY',
        $TEMPMON_API_KEY: 1,
      },
    ]);
    expect(exchange.response!.headers['x-echo']).toBe('$TEMPMON_API_KEY');
    expect(exchange.response!.headers.$TEMPMON_API_KEY).toBe('name');
    expect(exchange.request.headers['x-api-key']).toBe('$TEMPMON_API_KEY');
    const everything = JSON.stringify(exchange);
    for (let i = 0; i + 8 <= KEY.length; i += 1) expect(everything).not.toContain(KEY.slice(i, i + 8));
  });
});

describe('reaching targets', () => {
  it('reaches port 6000, which fetch refuses as a bad port', async (context) => {
    let target: string;
    try {
      target = await listen((_request, response) => json(response, 200, []), 6000);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') context.skip('port 6000 is in use on this machine');
      throw error;
    }
    await expect(fetch(`${target}/alert`)).rejects.toThrow();
    const exchange = await client(target).send('listAlerts', '/alert', {});
    expect(exchange.error).toBeUndefined();
    expect(exchange.response).toMatchObject({ status: 200, json: [] });
  });

  it('never follows a redirect, so the key never reaches the other origin', async () => {
    const seen: string[] = [];
    const other = await listen((request, response) => {
      seen.push(String(request.headers['x-api-key']));
      json(response, 200, []);
    });
    const target = await listen((_request, response) => {
      response.writeHead(302, { location: `${other}/alert` });
      response.end();
    });
    const exchange = await client(target).send('listAlerts', '/alert', {});
    expect(exchange.response?.status).toBe(302);
    expect(exchange.response?.headers.location).toBe(`${other}/alert`);
    expect(seen).toEqual([]);
  });

  it('sends an empty key as an empty header, and no header for a null key', async () => {
    const received: (string | undefined)[] = [];
    const target = await listen((request, response) => {
      received.push(request.headers['x-api-key'] as string | undefined);
      json(response, 401, {});
    });
    const http = client(target);
    await http.send('listAlerts', '/alert', {}, { apiKey: '' });
    await http.send('listAlerts', '/alert', {}, { apiKey: null });
    expect(received).toEqual(['', undefined]);
  });

  it('reports a refused connection readably', async () => {
    const exchange = await client(closedTarget()).send('listAlerts', '/alert', {});
    expect(exchange).toMatchObject({ error: 'connection refused' });
    expect(exchange.response).toBeUndefined();
  });

  it('describes transport errors by their cause', () => {
    const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
    expect(describeNetworkError(Object.assign(new TypeError('fetch failed'), { cause: coded('ECONNREFUSED') }))).toBe('connection refused');
    expect(describeNetworkError(coded('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.invalid'))).toBe('host not found');
    expect(describeNetworkError(new AggregateError([coded('ECONNREFUSED')]))).toBe('connection refused');
    expect(describeNetworkError(coded('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'))).toMatch(
      /^TLS error DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate \(trust a private CA with NODE_EXTRA_CA_CERTS/,
    );
    expect(describeNetworkError(new Error('plain'))).toBe('plain');
  });

  it('works over HTTPS with a self-signed certificate once its CA is trusted, and says why not otherwise', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'tempmon-tls-'));
    try {
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
            '-addext',
            'subjectAltName=IP:127.0.0.1',
            '-keyout',
            join(dir, 'key.pem'),
            '-out',
            join(dir, 'cert.pem'),
          ],
          { stdio: 'ignore' },
        );
      } catch {
        context.skip('openssl is not available to make a certificate');
      }
      const cert = readFileSync(join(dir, 'cert.pem'));
      const server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (_request, response) =>
        json(response, 200, [{ id: 'tls' }]),
      );
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      const target = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

      const trusted = await client(target, { dispatcher: new EnvHttpProxyAgent({ connect: { ca: cert } }) }).send(
        'listAlerts',
        '/alert',
        {},
      );
      expect(trusted.response).toMatchObject({ status: 200, json: [{ id: 'tls' }] });
      const untrusted = await client(target).send('listAlerts', '/alert', {});
      expect(untrusted.error).toMatch(/^TLS error (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('goes through an HTTP proxy when the agent is given one', async () => {
    const tunnels: string[] = [];
    const proxy = createServer();
    proxy.on('connect', (request: IncomingMessage, socket) => {
      tunnels.push(String(request.url));
      const [host, port] = String(request.url).split(':');
      const upstream = netConnect(Number(port), host!, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    const proxyUrl = await listen(() => undefined, 0, proxy);
    const target = await listen((_request, response) => json(response, 200, ['via proxy']));
    const dispatcher = new EnvHttpProxyAgent({ httpProxy: proxyUrl, noProxy: '' });
    const exchange = await client(target, { dispatcher }).send('listAlerts', '/alert', {});
    expect(exchange.response?.json).toEqual(['via proxy']);
    expect(tunnels).toEqual([new URL(target).host]);
  });
});

describe('politeness: 429 retries, rate, deadline (on a fake clock)', () => {
  it('retries a 429 once its Retry-After has passed, not before, and counts the retry', async () => {
    const arrivals: number[] = [];
    const http = onFakeClock((_request, at) => {
      arrivals.push(at);
      return arrivals.length === 1 ? answerJson(429, { title: 'slow down' }, { 'retry-after': '1' }) : answerJson(200, ['ok']);
    });
    const exchange = await settle(http.send('listAlerts', '/alert', {}));
    expect(exchange.response).toMatchObject({ status: 200, json: ['ok'] });
    expect(arrivals).toEqual([0, 1_000]);
    expect(http.stats).toEqual({ sent: 2, retried: 1, cut: 0 });
  });

  it('keeps at most `concurrency` requests in flight, and from the first 429 on one at a time, after its Retry-After', async () => {
    let inFlight = 0;
    let refusedAt: number | undefined;
    // Each request as it arrives: when, and how many were in flight with it.
    const arrivals: { at: number; overlap: number }[] = [];
    const http = onFakeClock(
      (request, at) => {
        inFlight += 1;
        arrivals.push({ at, overlap: inFlight });
        // Answered 20 ms later, so that requests overlap when they may.
        return new Promise((resolve) =>
          setTimeout(() => {
            inFlight -= 1;
            if (request.url.includes('page=10&') && refusedAt === undefined) {
              refusedAt = performance.now();
              resolve(answerJson(429, { title: 'slow down' }, { 'retry-after': '1' }));
            } else resolve(answerJson(200, []));
          }, 20),
        );
      },
      { concurrency: 4 },
    );
    const pages = Array.from({ length: 16 }, (_, k) => http.send('listAlerts', '/alert', { page: String(k + 1), pageSize: '5' }));
    const answers = await settle(Promise.all(pages));
    expect(answers.every((e) => e.response?.status === 200)).toBe(true);
    // Starting at 2, the limit climbs while latency holds: 4 in flight before the 429, never more.
    expect(Math.max(...arrivals.filter((a) => a.at < refusedAt!).map((a) => a.overlap))).toBe(4);
    // Those that took a slot freed at the very moment of the 429 were on their way; after it, nothing for the
    // Retry-After's second, then one request at a time.
    const after = arrivals.filter((a) => a.at > refusedAt!);
    expect(after.length).toBeGreaterThan(0);
    expect(Math.min(...after.map((a) => a.at)) - refusedAt!).toBe(1_000);
    expect(Math.max(...after.map((a) => a.overlap))).toBe(1);
    expect(http.stats).toMatchObject({ sent: 17, retried: 1 });
  });

  it('sends queued requests highest priority first, in order within a priority', async () => {
    const arrived: string[] = [];
    const target = await listen((request, response) => {
      arrived.push(new URL(request.url!, 'http://x').searchParams.get('n')!);
      json(response, 200, []);
    });
    const http = client(target, { concurrency: 1 });
    const send = (n: string, priority?: number) => http.send('listAlerts', '/alert', { n }, priority === undefined ? {} : { priority });
    // The first takes the only slot at once; the others queue behind it, each before any answer came.
    const sent = [send('first', -1), send('ahead-1', -1), send('plain-1'), send('listing', 1), send('ahead-2', -1), send('plain-2', 0)];
    await Promise.all(sent);
    expect(arrived).toEqual(['first', 'listing', 'plain-1', 'plain-2', 'ahead-1', 'ahead-2']);
  });

  it('gives up after maxRetries and returns the last 429', async () => {
    let hits = 0;
    const target = await listen((_request, response) => {
      hits += 1;
      json(response, 429, { hits }, { 'retry-after': '0' });
    });
    const http = client(target, { maxRetries: 2 });
    const exchange = await http.send('listAlerts', '/alert', {});
    expect(exchange.response).toMatchObject({ status: 429, json: { hits: 3 } });
    expect(hits).toBe(3);
    expect(http.stats).toEqual({ sent: 3, retried: 2, cut: 0 });
    const none = client(target, { maxRetries: 0 });
    expect((await none.send('listAlerts', '/alert', {})).response?.status).toBe(429);
    expect(none.stats.sent).toBe(1);
  });

  it('waits as Retry-After says, in seconds or as a date, capped; else backs off briefly', () => {
    expect(retryDelay('2', 0)).toBe(2_000);
    expect(retryDelay('3600', 0)).toBe(MAX_RETRY_WAIT_MS);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 27, 12, 0, 0) });
    expect(retryDelay(new Date(Date.now() + 5_000).toUTCString(), 0)).toBe(5_000);
    expect(retryDelay(new Date(Date.now() - 60_000).toUTCString(), 0)).toBe(0);
    expect(retryDelay(null, 0)).toBe(500);
    expect(retryDelay('soon', 1)).toBe(1_000);
  });

  it('spaces requests evenly to the rate, even when sent at once within the concurrency', async () => {
    const starts: number[] = [];
    const http = onFakeClock(
      (_request, at) => {
        starts.push(at);
        return answerJson(200, []);
      },
      { rate: 10, concurrency: 4 },
    );
    await settle(Promise.all(Array.from({ length: 12 }, (_, i) => http.send('listAlerts', '/alert', { page: String(i) }))));
    expect(starts).toEqual(Array.from({ length: 12 }, (_, i) => i * 100));
  });

  it('aborts requests in flight at the deadline, and sends nothing after it', async () => {
    let hits = 0;
    const deadline = new AbortController();
    const http = onFakeClock(
      () => {
        hits += 1;
        return new Promise<Response>(() => undefined); // never answers
      },
      { signal: deadline.signal, timeoutMs: 30_000 },
    );
    const pending = http.send('listAlerts', '/alert', {});
    setTimeout(() => deadline.abort(), 200);
    expect(await settle(pending)).toMatchObject({ error: DEADLINE_REACHED });
    expect(performance.now()).toBe(200); // at the deadline, not at the 30 s timeout
    const later = await http.send('listAlerts', '/alert', { page: '2' });
    expect(later).toMatchObject({ error: DEADLINE_REACHED, request: { url: 'http://target.test/alert?page=2' } });
    expect(later.response).toBeUndefined();
    expect(hits).toBe(1);
    expect(http.stats.sent).toBe(1);
  });

  it('stops waiting for a retry at the deadline', async () => {
    const deadline = new AbortController();
    const http = onFakeClock(() => answerJson(429, {}, { 'retry-after': '20' }), { signal: deadline.signal });
    setTimeout(() => deadline.abort(), 300);
    expect(await settle(http.send('listAlerts', '/alert', {}))).toMatchObject({ error: DEADLINE_REACHED });
    expect(performance.now()).toBe(300); // not after the 20 s Retry-After
    expect(http.stats).toEqual({ sent: 1, retried: 0, cut: 0 });
  });
});

describe('in-process fetch', () => {
  it('sends through the given fetch, redirects not followed, with the same caps and timeout', async () => {
    const requests: Request[] = [];
    const app = (request: Request): Response | Promise<Response> => {
      requests.push(request);
      const path = new URL(request.url).pathname.replace('/v1', '');
      if (path === '/redirect') return new Response(null, { status: 302, headers: { location: 'http://elsewhere.test/' } });
      if (path === '/silent') return new Promise<Response>(() => undefined);
      if (path === '/hang') return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('[')) }));
      if (path === '/endless') {
        const chunk = new TextEncoder().encode('{"id":"a"},'.repeat(1000));
        return new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk) }));
      }
      return Response.json([{ id: 'a1', echo: request.headers.get('x-api-key') }]);
    };
    const http = client('http://in-process.test/v1/', { fetch: app, timeoutMs: 300, maxBodyBytes: MiB });

    const ok = await http.send('listAlerts', '/alert', { page: '1' });
    expect(requests[0]!.url).toBe('http://in-process.test/v1/alert?page=1');
    expect(requests[0]!.headers.get('x-api-key')).toBe(KEY);
    expect(ok.response).toMatchObject({ status: 200, json: [{ id: 'a1', echo: '$TEMPMON_API_KEY' }] });
    expect(ok.response!.text).not.toContain(KEY);

    expect((await http.send('listAlerts', '/redirect', {})).response?.status).toBe(302);
    expect(await http.send('listAlerts', '/hang', {})).toMatchObject({ error: 'no complete response within 300 ms' });
    expect(await http.send('listAlerts', '/silent', {})).toMatchObject({ error: 'no complete response within 300 ms' });
    const endlessBody = await http.send('listAlerts', '/endless', {});
    expect(endlessBody.error).toBe(`body larger than ${MiB} bytes; reading stopped`);
    expect(endlessBody.response?.text.length).toBeLessThanOrEqual(4096);
    expect(http.stats).toEqual({ sent: 5, retried: 0, cut: 1 });
  });
});
