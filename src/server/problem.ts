import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { HideKeys } from './hide-keys.ts';
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

/** Every problem the mock can answer with, in one place. */
export const PROBLEMS = {
  invalidQuery: { type: 'urn:tempmon:problem:invalid-query', title: 'Invalid query parameter', status: 400 },
  invalidHost: { type: 'urn:tempmon:problem:invalid-host', title: 'Invalid Host header', status: 400 },
  unauthorized: { type: 'urn:tempmon:problem:unauthorized', title: 'Missing or unknown API key', status: 401 },
  forbidden: { type: 'urn:tempmon:problem:forbidden', title: 'Forbidden', status: 403 },
  notFound: { type: 'about:blank', title: 'Not Found', status: 404 },
  methodNotAllowed: { type: 'about:blank', title: 'Method Not Allowed', status: 405 },
  rateLimited: { type: 'urn:tempmon:problem:rate-limited', title: 'Too Many Requests', status: 429 },
  internal: { type: 'about:blank', title: 'Internal Server Error', status: 500 },
  badGateway: { type: 'urn:tempmon:problem:bad-gateway', title: 'Bad Gateway', status: 502 },
  unavailable: { type: 'about:blank', title: 'Service Unavailable', status: 503 },
  notReady: { type: 'urn:tempmon:problem:not-ready', title: 'Not ready', status: 503 },
  gatewayTimeout: { type: 'urn:tempmon:problem:gateway-timeout', title: 'Gateway Timeout', status: 504 },
} as const satisfies Record<string, ProblemTemplate>;

/** The template for an error status, if the mock has one. */
export const problemFor = (status: number): ProblemTemplate | undefined =>
  Object.values(PROBLEMS).find((template) => template.status === status);

/** The media type of RFC 9457 problem documents. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

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
  const hide: HideKeys = c.get('hideKeys') ?? ((text) => text);
  // Cut from the raw text, never parsed: a problem about an unparsable URL must not throw on it.
  const body = problemBody(template, hide(detail), hide(pathAndQuery(c.req.url)), {
    ...(extra.errors ? { errors: extra.errors.map((error) => ({ ...error, detail: hide(error.detail) })) } : {}),
    ...extra.extra,
  });
  return c.body(body, template.status, { 'Content-Type': PROBLEM_MEDIA_TYPE, ...extra.headers });
}

/** The JSON text of a problem document for the request at `pathAndQuery`. */
export function problemBody(
  template: ProblemTemplate,
  detail: string,
  pathAndQuery: string,
  members: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    type: template.type,
    title: template.title,
    status: template.status,
    detail,
    instance: asUriReference(pathAndQuery),
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
