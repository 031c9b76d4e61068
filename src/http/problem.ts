import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Operation } from '../spec/operations.ts';
import { ANY_ORIGIN } from './browser-cors.ts';
import { hideKeysIn } from './hide-keys.ts';
import { pathAndQuery } from './request-url.ts';

/** The fixed part of an RFC 9457 problem: its type, title and status. */
export interface ProblemTemplate {
  readonly type: string;
  readonly title: string;
  readonly status: ContentfulStatusCode;
}

/** One invalid request parameter, the `errors` extension member of the spec's Problem schema. */
export interface ParameterError {
  readonly in: 'query' | 'header';
  readonly name: string;
  readonly detail: string;
}

/** Status names (RFC 9110) for the problems of type about:blank, whose title is the status's own name. */
const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A status's own name, for a status line or an about:blank problem's title. */
export const reasonPhrase = (status: number): string => REASONS[status] ?? `HTTP ${status}`;

/** A problem of type about:blank: the status says it all (RFC 9457, 4.2.1). */
const blank = <S extends ContentfulStatusCode>(status: S): ProblemTemplate & { readonly status: S } => ({
  type: 'about:blank',
  title: reasonPhrase(status),
  status,
});

/**
 * The problems the mock and the proxy answer with outside what an operation documents (an invalid Host,
 * an unknown path, another method, a failure of their own, the probes). What a listing answers with
 * (400, 401, 429...) is read from its responses in the spec: see {@link operationProblem}.
 */
export const PROBLEMS = {
  invalidHost: { type: 'urn:tempmon:problem:invalid-host', title: 'Invalid Host header', status: 400 },
  invalidRequest: { type: 'urn:tempmon:problem:invalid-request', title: 'Invalid request target', status: 400 },
  // What node:http's parser refuses (see clientError): not HTTP/1.1 it can read, headers past its limits.
  malformedRequest: { type: 'urn:tempmon:problem:malformed-request', title: 'Malformed request', status: 400 },
  requestTimeout: blank(408),
  contentTooLarge: blank(413),
  headersTooLarge: blank(431),
  notFound: blank(404),
  methodNotAllowed: blank(405),
  internal: blank(500),
  badGateway: { type: 'urn:tempmon:problem:bad-gateway', title: 'Bad Gateway', status: 502 },
  notReady: { type: 'urn:tempmon:problem:not-ready', title: 'Not ready', status: 503 },
  gatewayTimeout: { type: 'urn:tempmon:problem:gateway-timeout', title: 'Gateway Timeout', status: 504 },
} as const satisfies Record<string, ProblemTemplate>;

/**
 * The problem `operation` documents for `status`: the type and title of its response's example in the
 * spec, so a problem type is written once. A status it does not document gets `about:blank` and the
 * status's own name (RFC 9457, 4.2.1).
 */
export function operationProblem(operation: Operation, status: ContentfulStatusCode): ProblemTemplate {
  const documented = operation.responses.find((r) => r.status === String(status))?.problem;
  return documented ? { ...documented, status } : blank(status);
}

/** The media type of RFC 9457 problem documents. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * The headers of a problem answered outside the Hono app (what the adapter or node:http's parser refuses,
 * a Worker that cannot start): its media type, and the CORS header browserCors gives every app answer.
 */
export const OUTSIDE_APP_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': PROBLEM_MEDIA_TYPE,
  ...ANY_ORIGIN,
};

/**
 * Answers with a problem document. `instance` is the request's path and query; it, `detail` and each
 * error's detail go through the app's key redaction (see hideKeys), for a client that put its key in
 * the URL.
 */
export function problem(
  c: Context,
  template: ProblemTemplate,
  detail: string,
  extra: { errors?: readonly ParameterError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
): Response {
  const hide = hideKeysIn(c);
  // Cut from the raw text, never parsed: a problem about an unparsable URL must not throw on it.
  const body = problemBody(template, hide(detail), hide(pathAndQuery(c.req.url)), {
    ...(extra.errors ? { errors: extra.errors.map((error) => ({ ...error, detail: hide(error.detail) })) } : {}),
    ...extra.extra,
  });
  return c.body(body, template.status, { 'Content-Type': PROBLEM_MEDIA_TYPE, ...extra.headers });
}

/** The JSON text of a problem document for the request at `pathAndQuery` (no `instance` when undefined). */
export function problemBody(
  template: ProblemTemplate,
  detail: string,
  pathAndQuery: string | undefined,
  members: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    type: template.type,
    title: template.title,
    status: template.status,
    detail,
    ...(pathAndQuery === undefined ? {} : { instance: asUriReference(pathAndQuery) }),
    ...members,
  });
}

/**
 * Percent-encodes what WHATWG URLs leave raw but RFC 3986 forbids (`|`, `^`, a stray `%`...), so that
 * `instance` is always a valid uri-reference, as the Problem schema requires.
 */
function asUriReference(text: string): string {
  return text.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => (c === '%' ? '%25' : encodeURIComponent(c)));
}
