// Over real HTTP through `tempmon serve` and `tempmon proxy`: a key a client puts in the URL is never
// written back, neither in a response (header or body) nor in the request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyCommand } from '../../src/cli/proxy.ts';
import { serveCommand } from '../../src/cli/serve.ts';

const KEY = 'sk-test-4f9a2b7c1d3e5f60';

/** Whether `text` holds the key in any form a URL may carry it: as is, percent-encoded, `+` for space, any case. */
function leaks(text: string): boolean {
  const decoded = [text, safeDecode(text), safeDecode(text.replaceAll('+', ' '))];
  return decoded.some((form) => form.toLowerCase().includes(KEY.toLowerCase()));
}
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
/** Every byte of a response a client sees, as text. */
async function seen(response: Response): Promise<string> {
  return `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${await response.text()}`;
}

const escaped = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
/** The key in every place and form of a URL, with and without the key header. */
const URLS = [
  `/alert?x-api-key=${KEY}&search=${KEY}`,
  `/alert?x-api-key=${escaped}`,
  `/alert?search=${KEY.toUpperCase()}`,
  `/sensor?page=${KEY}`,
  `/sensor?pageSize=${encodeURIComponent(KEY)}&search=x`,
  `/alert/${KEY}`,
  `/${escaped.toUpperCase()}?q=1`,
  `/alert?${KEY}=1`,
  `/alert?__code=503&search=${KEY}`,
];

describe('a key in the URL, against the mock', () => {
  const lines: string[] = [];
  let server: Awaited<ReturnType<typeof serveCommand>>;
  beforeAll(async () => {
    server = await serveCommand(['--port', '0', '--api-key', KEY, '--alerts', '30', '--sensors', '5'], (line) => lines.push(line));
  });
  afterAll(() => server?.close());

  it.each([false, true])('is in no response and no log line (key header sent: %s)', async (withHeader) => {
    const url = server!.url;
    const headers = withHeader ? { 'x-api-key': KEY } : undefined;
    for (const path of URLS) {
      // Three times: an answer is kept from its request's second sight, and node:http replays it from the third.
      for (const round of [1, 2, 3]) {
        const response = await fetch(`${url}${path}`, { headers });
        expect(response.status, `${path} (round ${round})`).toBeLessThan(500 + (path.includes('__code=503') ? 4 : 0));
        expect(leaks(await seen(response)), `${path} (round ${round}) echoed the key`).toBe(false);
      }
    }
    // A line is written once its answer is sent, which may be after the client has read it.
    await expect.poll(() => lines.filter((line) => line.startsWith('GET ')).length).toBeGreaterThanOrEqual(URLS.length * 3);
    const logged = lines.filter((line) => line.startsWith('GET '));
    for (const line of logged) expect(leaks(line), line).toBe(false);
  });

  it('still searches for the term and answers: only the Link that would quote the key is left out', async () => {
    const response = await fetch(`${server!.url}/alert?search=${KEY}`, { headers: { 'x-api-key': KEY } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    expect(response.headers.get('x-total-count')).toBe('0');
    expect(response.headers.get('link')).toBeNull();
    // A term that is no key keeps its Link.
    const plain = await fetch(`${server!.url}/alert?search=cold`, { headers: { 'x-api-key': KEY } });
    expect(plain.headers.get('link')).toContain('search=cold');
  });

  it('shows where the key was in the 401 instance', async () => {
    const response = await fetch(`${server!.url}/alert?x-api-key=${KEY}&page=1`);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { instance: string };
    expect(body.instance).toBe('/alert?x-api-key=%3Credacted%3E&page=1');
  });
});

describe('a key in the URL, through the proxy', () => {
  const lines: string[] = [];
  let mock: Awaited<ReturnType<typeof serveCommand>>;
  let proxy: Awaited<ReturnType<typeof proxyCommand>>;
  beforeAll(async () => {
    mock = await serveCommand(['--port', '0', '--api-key', KEY, '--alerts', '30', '--sensors', '5', '--quiet'], () => undefined);
    proxy = await proxyCommand(['--port', '0', '--target', mock!.url], (line) => lines.push(line));
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('is in none of its own log lines, nor its own problem documents', async () => {
    for (const path of URLS) {
      const response = await fetch(`${proxy!.url}${path}`, { headers: { 'x-api-key': KEY } });
      // The target's answers pass through unchanged (documented); the mock's own are already clean.
      expect(leaks(await seen(response)), path).toBe(false);
    }
    await expect.poll(() => lines.filter((line) => line.startsWith('GET ')).length).toBeGreaterThanOrEqual(URLS.length);
    for (const line of lines) expect(leaks(line), line).toBe(false);
  });

  it('hides the key in a 502 it writes itself when the target is down', async () => {
    await mock!.close();
    const response = await fetch(`${proxy!.url}/alert?search=${KEY}`, { headers: { 'x-api-key': KEY } });
    expect(response.status).toBe(502);
    expect(leaks(await seen(response))).toBe(false);
    for (const line of lines) expect(leaks(line), line).toBe(false);
  });
});
