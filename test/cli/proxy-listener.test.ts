// `tempmon proxy` is served by the mock's own node:http listener: the adapter's refusals get problem+json,
// and an unread request body does not close a kept-alive connection. Over raw sockets.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { proxyCommand } from '../../src/cli/proxy.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { KEY, rawConversation } from '../helpers.ts';

let mock: Awaited<ReturnType<typeof serveCommand>>;
let proxy: Awaited<ReturnType<typeof proxyCommand>>;
beforeAll(async () => {
  mock = await serveCommand(['--port', '0', '--api-key', KEY, '--alerts', '5', '--sensors', '5', '--quiet'], () => undefined);
  proxy = await proxyCommand(['--port', '0', '--target', mock!.url, '--quiet'], () => undefined);
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

/** Sends `parts` to the proxy on one raw connection (see rawConversation). */
const conversation = (parts: string[], pauseMs = 0) => rawConversation(Number(new URL(proxy!.url).port), parts, pauseMs);

describe('the proxy listener', () => {
  it('answers an invalid Host with 400 problem+json and CORS', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const text = await conversation(['GET /alert HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n']);
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      expect(text.toLowerCase()).toContain('content-type: application/problem+json');
      expect(text.toLowerCase()).toContain('access-control-allow-origin: *');
      expect(text).toContain('urn:tempmon:problem:invalid-host');
    } finally {
      quiet.mockRestore();
    }
  });

  it('keeps the connection for the next request when a body arrives after the answer', async () => {
    const text = await conversation(
      [
        'POST /alert HTTP/1.1\r\nHost: p\r\nContent-Length: 10\r\n\r\n12345',
        '67890',
        `GET /alert?pageSize=1 HTTP/1.1\r\nHost: p\r\nx-api-key: ${KEY}\r\nConnection: close\r\n\r\n`,
      ],
      700,
    );
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
    expect(statuses).toEqual(['405', '200']);
  });
});
