import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header, by name in any letter case. Under @hono/node-server it is read from node:http's own
 * parsed headers: the adapter's Request makes a Fetch Headers of every header the first time one is asked
 * for, a few microseconds of every request. node:http joins repeated headers with `, ` as Fetch does (the
 * few it keeps only once, Host among them, are not read here). On the other runtimes, whose `c.env` is no
 * node:http pair (a Worker's is its bindings), the Request's own headers.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: Partial<IncomingMessage> } | undefined)?.incoming;
  const headers = incoming?.headers;
  if (!headers || typeof headers !== 'object') return c.req.header(name);
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
