import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { describeNetworkError } from '../contract/client/network-error.ts';
import type { Exchange } from '../contract/types.ts';
import type { ProxyOptions } from './proxy-options.ts';
import { type HideKeys, hideKeysIn, keyHider } from '../http/hide-keys.ts';
import { createQueryParser } from '../http/parse-query.ts';
import { createShell } from '../http/create-shell.ts';
import { PROBLEMS, PROBLEM_MEDIA_TYPE, problemBody, type ProblemTemplate } from '../http/problem.ts';
import { listListings, apiKeyHeaders } from '../spec/operations.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { createRecorder } from './recorder.ts';
import { UpstreamTimeout, fetchUpstream, nodeUpstream, type UpstreamResponse } from './upstream.ts';
import { exchangeValidator, type Violation } from './validate-exchange.ts';

export type { ProxyOptions } from './proxy-options.ts';

// Per RFC 9110, connection-specific headers are not forwarded; the Fetch API sets its own length.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
]);
const MAX_VIOLATIONS = 1_000;

/**
 * A validating proxy: forwards GET listings to the target unchanged and checks every response with the
 * contract kit's response checks. Violations are logged, counted and listed at GET /__tempmon/violations.
 */
export async function createProxy(options: ProxyOptions) {
  const { document } = options.spec;
  // Loaded here, not at import: the public entry must not make every importer pay for prism-http.
  const { loadJudges } = await import('../contract/model/judges.ts');
  const judges = await loadJudges(document);
  const validator = createSchemaValidator(document);
  const recorder = options.record ? createRecorder(options.record, document, validator) : undefined;
  const upstream = options.fetch ? fetchUpstream(options.fetch) : nodeUpstream;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = options.target.replace(/\/$/, '');
  const violations: Violation[] = [];
  let count = 0;
  const log = options.log ?? (() => undefined);

  const operations = listListings(document);
  const keyHeaders = apiKeyHeaders(operations);
  /** Hides the key a request sent (in its key header) wherever the proxy itself quotes that request. */
  const hideKeysOf = (headers: Readonly<Record<string, string | string[] | undefined>>): HideKeys =>
    keyHider(keyHeaders.flatMap((name) => headers[name] ?? []));
  const forwarders = operations.map((operation) => {
    const judge = memoised(exchangeValidator(operation, document, judges));
    const parseQuery = createQueryParser(operation.queryParameters, validator);
    const forward = async (incoming: URL, requestHeaders: Record<string, string | undefined>, hide: HideKeys): Promise<Reply> => {
      const url = `${base}${operation.path}${incoming.search}`;
      // The proxy's own words about the request (log lines, its problem documents) never quote the key.
      const where = hide(`${incoming.pathname}${incoming.search}`);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(requestHeaders))
        if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
      const key = operation.apiKeyHeader ? headers[operation.apiKeyHeader] : undefined;
      const secrets = { ...(key ? { apiKey: key } : {}), headerValues: [] };

      let answer: UpstreamResponse;
      const started = performance.now();
      try {
        answer = await upstream(url, headers, timeoutMs);
      } catch (error) {
        const timedOut = error instanceof UpstreamTimeout;
        const reason = timedOut ? (error as Error).message : describeNetworkError(error);
        log(`upstream ${timedOut ? 'timeout' : 'failure'} ${operation.operationId} ${where}: ${hide(reason)}`);
        const template = timedOut ? PROBLEMS.gatewayTimeout : PROBLEMS.badGateway;
        return problemReply(
          template,
          hide(`The target ${timedOut ? 'did not answer in time' : 'could not be reached'}: ${reason}.`),
          where,
        );
      }
      const { text } = answer;
      const responseHeaders = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const exchange: Exchange = {
        operationId: operation.operationId,
        request: { method: 'GET', url, headers: {} },
        response: {
          status: answer.status,
          headers: responseHeaders,
          text,
          ...(json === undefined ? {} : { json }),
          durationMs: Math.round(performance.now() - started),
        },
      };
      // The request is judged too: a client sending page=0 is told, even if the target copes.
      const query = parseQuery(incoming.searchParams);
      const requestViolations: Violation[] = query.ok
        ? []
        : query.errors.map((e) => ({
            time: new Date().toISOString(),
            operationId: operation.operationId,
            check: 'request_query_conformance',
            severity: 'warning',
            message: `query parameter ${e.name} ${e.detail}`,
          }));
      const found = [...requestViolations, ...judge(exchange)];
      for (const violation of found) {
        count += 1;
        violations.push(violation);
        if (violations.length > MAX_VIOLATIONS) violations.shift();
        log(
          hide(
            `violation ${violation.operationId} ${violation.status ?? 'request'} ${violation.message} (${violation.check}, ${violation.severity})`,
          ),
        );
      }
      if (answer.status === 200 && recorder) recorder.add(operation.itemSchema, json, secrets);
      if (options.errors && found.some((v) => v.severity === 'error')) {
        return problemReply(
          PROBLEMS.badGateway,
          `The target's response breaks the contract (${found.length} violation${found.length === 1 ? '' : 's'}).`,
          where,
          {
            violations: found.map(({ check, severity, message }) => ({ check, severity, message })),
          },
        );
      }
      return { status: answer.status, headers: responseHeaders, body: text };
    };
    return { operation, forward };
  });

  // The spec and its interactive reference, with the mock's own handlers; "Try it out" goes through the proxy.
  // Another method on a listing path gets 405 naming what the spec has there, as the mock answers (never forwarded).
  const app = createShell(
    { spec: options.spec, operations, name: 'proxy', hideKeys: { perRequest: (c) => hideKeysOf(c.req.header()) }, logFailure: log },
    (app) => {
      app.get('/__tempmon/violations', (c) => c.json({ count, violations }));
      for (const { operation, forward } of forwarders)
        app.get(operation.path, async (c) => {
          // The request's HideKeys, made once by the shell.
          const reply = await forward(new URL(c.req.url), c.req.header(), hideKeysIn(c));
          return new Response(reply.body, { status: reply.status, headers: reply.headers });
        });
    },
  );
  return { app, hideKeysOf, violations: () => ({ count, violations: [...violations] }), flush: () => recorder?.flush() };
}

/** What the proxy sends back. */
interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

function problemReply(template: ProblemTemplate, detail: string, where: string, members: Record<string, unknown> = {}): Reply {
  return {
    status: template.status,
    headers: { 'content-type': PROBLEM_MEDIA_TYPE },
    body: problemBody(template, detail, where, members),
  };
}

const MEMO_LIMIT = 256;

/**
 * Judging depends only on the status, the content type and the body, so a response seen before (the
 * same page fetched again) reuses its verdict instead of validating every record again.
 */
function memoised(judge: (exchange: Exchange) => Violation[]): (exchange: Exchange) => Violation[] {
  const verdicts = new LRUCache<string, Violation[]>({ max: MEMO_LIMIT });
  return (exchange) => {
    const response = exchange.response!;
    const key = `${response.status}|${response.headers['content-type'] ?? ''}|${createHash('sha1').update(response.text).digest('base64')}`;
    const known = verdicts.get(key);
    if (known) return known.map((v) => ({ ...v, time: new Date().toISOString() }));
    const found = judge(exchange);
    verdicts.set(key, found);
    return found;
  };
}
