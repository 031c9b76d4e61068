import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header, by name in any letter case. Under @hono/node-server it is read from node:http's own
 * parsed headers: the adapter's Request makes a Fetch Headers of every header the first time one is
 * asked for, which cost more than the rest of a listing's pipeline. node:http joins repeated headers
 * with `, ` as Fetch does (the few it keeps only once, Host among them, are not read here). On the other
 * runtimes, the Request's own headers.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
