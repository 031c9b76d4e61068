import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { FetchLike } from '../contract/http-client.ts';
import { describeNetworkError } from '../contract/http-client.ts';
import { createPrismValidator } from '../contract/prism.ts';
import type { Exchange } from '../contract/types.ts';
import { createQueryParser } from '../server/parse-query.ts';
import { PROBLEMS, problem } from '../server/problem.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { listOperations } from '../spec/operations.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { createRecorder } from './recorder.ts';
import { exchangeValidator, type Violation } from './validate-exchange.ts';

/** Options of {@link createProxy}. */
export interface ProxyOptions {
  /** Base URL of the real deployment. */
  readonly target: string;
  readonly spec: LoadedSpec;
  /** Upstream time limit, body included; beyond it the client gets 504. */
  readonly timeoutMs?: number;
  /** Answer 502 with the violations instead of passing a non-conformant response through. */
  readonly errors?: boolean;
  /** Data file to record the records seen into. */
  readonly record?: string;
  /** One line per violation or upstream failure; never the key. */
  readonly log?: (line: string) => void;
  /** How to reach the target (global fetch by default). */
  readonly fetch?: FetchLike;
}

// Per RFC 9110, connection-specific headers are not forwarded; the Fetch API sets its own length.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);
const MAX_VIOLATIONS = 1_000;

/**
 * A validating proxy: forwards GET listings to the target unchanged and checks every response with the
 * contract kit's response checks. Violations are logged, counted and listed at GET /__tempmon/violations.
 */
export async function createProxy(options: ProxyOptions) {
  const { document } = options.spec;
  const prism = await createPrismValidator(document);
  const validator = createSchemaValidator(document);
  const recorder = options.record ? createRecorder(options.record, document, validator) : undefined;
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  const base = options.target.replace(/\/$/, '');
  const violations: Violation[] = [];
  let count = 0;
  const log = options.log ?? (() => undefined);

  const app = new Hono();
  app.use('*', cors({ origin: '*', allowMethods: ['GET', 'HEAD', 'OPTIONS'], allowHeaders: ['x-api-key', 'Content-Type', 'Prefer'], exposeHeaders: ['X-Total-Count', 'Link', 'Retry-After', 'ETag'] }));
  app.get('/__tempmon/violations', (c) => c.json({ count, violations }));

  for (const operation of listOperations(document).filter((op) => op.method === 'get')) {
    const judge = exchangeValidator(operation, document, prism);
    const parseQuery = createQueryParser(operation.queryParameters, validator);
    app.get(operation.path, async (c) => {
      const incoming = new URL(c.req.url);
      const url = `${base}${operation.path}${incoming.search}`;
      const headers = new Headers();
      for (const [name, value] of Object.entries(c.req.header())) if (!HOP_BY_HOP.has(name.toLowerCase())) headers.set(name, value);
      const key = operation.apiKeyHeader ? c.req.header(operation.apiKeyHeader) : undefined;
      const secrets = { ...(key ? { apiKey: key } : {}), headerValues: [] };

      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10_000);
      let upstream: Response;
      let text: string;
      const started = performance.now();
      try {
        upstream = await doFetch(new Request(url, { headers, redirect: 'manual', signal: controller.signal }));
        text = await upstream.text();
      } catch (error) {
        const timedOut = controller.signal.aborted;
        const reason = timedOut ? `no response within ${options.timeoutMs ?? 10_000} ms` : describeNetworkError(error);
        log(`upstream ${timedOut ? 'timeout' : 'failure'} ${operation.operationId} ${incoming.pathname}${incoming.search}: ${reason}`);
        return problem(c, timedOut ? PROBLEMS.gatewayTimeout : PROBLEMS.badGateway, `The target ${timedOut ? 'did not answer in time' : 'could not be reached'}: ${reason}.`);
      } finally {
        clearTimeout(timer);
      }

      const responseHeaders = Object.fromEntries([...upstream.headers].filter(([name]) => !HOP_BY_HOP.has(name)));
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const exchange: Exchange = {
        operationId: operation.operationId,
        request: { method: 'GET', url, headers: {} },
        response: { status: upstream.status, headers: responseHeaders, text, ...(json === undefined ? {} : { json }), durationMs: Math.round(performance.now() - started) },
      };
      // The request is judged too: a client sending page=0 is told, even if the target copes.
      const query = parseQuery(incoming.searchParams);
      const requestViolations: Violation[] = query.ok
        ? []
        : query.errors.map((e) => ({ time: new Date().toISOString(), operationId: operation.operationId, check: 'request_query_conformance', severity: 'warning', message: `request ${e.name} ${e.detail}` }));
      const found = [...requestViolations, ...judge(exchange)];
      for (const violation of found) {
        count += 1;
        violations.push(violation);
        if (violations.length > MAX_VIOLATIONS) violations.shift();
        log(`violation ${violation.operationId} ${violation.status ?? '-'} ${violation.message} (${violation.check}, ${violation.severity})`);
      }
      if (upstream.status === 200 && recorder) recorder.add(operation.itemSchema, json, secrets);
      if (options.errors && found.some((v) => v.severity === 'error')) {
        return problem(c, PROBLEMS.badGateway, `The target's response breaks the contract (${found.length} violation${found.length === 1 ? '' : 's'}).`, {
          extra: { violations: found.map(({ check, severity, message }) => ({ check, severity, message })) },
        });
      }
      return new Response(text, { status: upstream.status, headers: { ...responseHeaders, 'access-control-allow-origin': '*' } });
    });
  }
  app.notFound((c) => problem(c, PROBLEMS.notFound, `No operation at ${new URL(c.req.url).pathname}.`));
  return { app, violations: () => ({ count, violations: [...violations] }), flush: () => recorder?.flush() };
}
