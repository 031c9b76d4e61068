import http from 'node:http';
import https from 'node:https';
import type { FetchLike } from '../contract/client/http-client.ts';

/** What the proxy needs of an upstream answer. */
export interface UpstreamResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

/** Thrown when the upstream does not answer in time. */
export class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
}

/** Sends a GET upstream: a function of the URL, the headers and the time limit. */
export type Upstream = (url: string, headers: Record<string, string>, timeoutMs: number) => Promise<UpstreamResponse>;

// Keep-alive pools: node:http with a kept-alive socket costs a fraction of undici's fetch per request.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/** The default upstream: node:http(s) with keep-alive sockets; redirects are never followed. */
export const nodeUpstream: Upstream = (url, headers, timeoutMs) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.get(target, { headers, agent: agents[target.protocol as 'http:' | 'https:'] }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers))
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: response.statusCode ?? 502, headers: flat, text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    const timer = setTimeout(() => request.destroy(new UpstreamTimeout(`no response within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });

/** An upstream over a fetch function (an in-process app in tests). */
export function fetchUpstream(fetch: FetchLike): Upstream {
  return async (url, headers, timeoutMs) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new UpstreamTimeout(`no response within ${timeoutMs} ms`)), timeoutMs);
    try {
      const response = await fetch(new Request(url, { headers, redirect: 'manual', signal: controller.signal }));
      const text = await response.text();
      return { status: response.status, headers: Object.fromEntries(response.headers), text };
    } catch (error) {
      throw controller.signal.aborted ? new UpstreamTimeout(`no response within ${timeoutMs} ms`) : error;
    } finally {
      clearTimeout(timer);
    }
  };
}
