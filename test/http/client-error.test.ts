// What node:http's own parser refuses, through the server `tempmon serve` and `tempmon proxy` listen with:
// problem+json with CORS and Node's status, never Node's bare 400, never the request's bytes.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/cli/listen.ts';
import { createMock } from '../../src/server/create-app.ts';
import { nodeListener } from '../../src/server/node-listener.ts';
import { KEY, rawConversation, spec, validator } from '../helpers.ts';

let server: Server;
let port = 0;
beforeAll(async () => {
  const running = await listen(
    nodeListener(createMock({ spec, dataset: { seed: 4, counts: { alerts: 10, sensors: 5 } } })),
    '127.0.0.1',
    0,
  );
  server = running.server;
  port = Number(new URL(running.url).port);
});
afterAll(() => {
  server.close();
});

/** The responses in what a raw connection received: status, lower-cased headers, body. */
function responses(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const out = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    const body = Buffer.from(rest.slice(end + 4), 'utf8')
      .subarray(0, length)
      .toString('utf8');
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    rest = Buffer.from(rest.slice(end + 4), 'utf8')
      .subarray(length)
      .toString('utf8');
  }
  return out;
}

describe("what node:http's parser refuses", () => {
  it.each([
    ['an unknown method', 'FOO /alert HTTP/1.1\r\nHost: a\r\n\r\n', 400, 'urn:tempmon:problem:malformed-request'],
    [
      'a space in the target, with the key',
      `GET /al ert HTTP/1.1\r\nHost: a\r\nx-api-key: ${KEY}\r\n\r\n`,
      400,
      'urn:tempmon:problem:malformed-request',
    ],
    ['bare LF line ends', `GET /alert HTTP/1.1\nHost: a\nx-api-key: ${KEY}\n\n`, 400, 'urn:tempmon:problem:malformed-request'],
    ['a header past 16 KiB', `GET /alert HTTP/1.1\r\nHost: a\r\nx-big: ${'b'.repeat(17 * 1024)}\r\n\r\n`, 431, 'about:blank'],
  ])('%s gets problem+json with CORS and closes the connection', async (_, bytes, status, type) => {
    const text = await rawConversation(port, [bytes]);
    const [answer, ...more] = responses(text);
    expect(more).toEqual([]);
    expect(answer!.status).toBe(status);
    expect(answer!.headers['content-type']).toBe('application/problem+json');
    expect(answer!.headers['access-control-allow-origin']).toBe('*');
    expect(answer!.headers.connection).toBe('close');
    const problem = JSON.parse(answer!.body);
    expect(validator.validate('Problem', problem)).toEqual([]);
    expect(problem).toMatchObject({ status, type });
    expect(problem.detail).toMatch(/(^|\. )node:http refused the request before the mock saw it \(\w+\)\.$/);
    expect(text).not.toContain(KEY);
  });

  it('says in words what was wrong with a raw space in the URL: encode it as %20 (issue 51, item 7)', async () => {
    const text = await rawConversation(port, [`GET /alert?search=cold chain HTTP/1.1\r\nHost: a\r\nx-api-key: ${KEY}\r\n\r\n`]);
    const [answer] = responses(text);
    expect(answer!.status).toBe(400);
    expect(answer!.headers['content-type']).toBe('application/problem+json');
    const problem = JSON.parse(answer!.body);
    expect(validator.validate('Problem', problem)).toEqual([]);
    expect(problem.detail).toBe(
      'The request line holds a space: encode it as %20. node:http refused the request before the mock saw it (HPE_INVALID_CONSTANT).',
    );
    // Nothing of the request is echoed: not the URL, not the key.
    expect(text).not.toContain('cold');
    expect(text).not.toContain(KEY);
  });

  it('refuses a bad request after an answer on a kept-alive connection too, with its problem, as Node answers it', async () => {
    // The bad bytes come once the first answer is out (in one packet, Node refuses the two at once).
    const text = await rawConversation(
      port,
      [`GET /alert?pageSize=1 HTTP/1.1\r\nHost: a\r\nx-api-key: ${KEY}\r\n\r\n`, 'FOO / HTTP/1.1\r\n\r\n'],
      200,
    );
    const answers = responses(text);
    expect(answers.map((r) => r.status)).toEqual([200, 400]);
    expect(answers[1]!.headers['content-type']).toBe('application/problem+json');
  });

  it('answers a HEAD it cannot parse without a body (a client would read one as its next answer)', async () => {
    const text = await rawConversation(port, ['HEAD ?page= HTTP/1.1\r\nHost: a\r\n\r\n']);
    expect(text).toMatch(/^HTTP\/1\.1 400 [^\r]*\r\nConnection: close\r\n\r\n$/);
  });

  it('leaves the server answering', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/alert?pageSize=2`, { headers: { 'x-api-key': KEY } });
    expect(response.status).toBe(200);
  });
});
