import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HideKeys } from '../../src/server/hide-keys.ts';
import { requestLog } from '../../src/server/request-log.ts';

const request = (url: string, method = 'GET') => ({ method, url }) as IncomingMessage;
const response = (statusCode: number, destroyed = false) => ({ statusCode, destroyed }) as ServerResponse;

describe('requestLog (compact)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes each request its own line, a line like the last reused only when nothing in it changed', () => {
    const lines: string[] = [];
    const hideKey: HideKeys = (text) => text.replaceAll('secret', '$KEY');
    let keys: HideKeys = (text) => text;
    const log = requestLog(
      'compact',
      (line) => lines.push(line),
      () => keys,
    );
    // A clock that stands still unless a request says how long it took.
    vi.spyOn(performance, 'now').mockReturnValue(1000);
    const now = () => log.now();
    log.written(request('/a'), response(200), now());
    log.written(request('/a'), response(200), now());
    log.written(request('/a'), response(404), now());
    log.written(request('/a', 'HEAD'), response(404), now());
    log.written(request('/a', 'HEAD'), response(404), now() - 1.26);
    log.written(request('/a', 'HEAD'), response(404, true), now() - 1.26);
    log.written(request('/b?k=secret'), response(200), now());
    // The keys change (data reloaded with other keys): the same URL is hidden again.
    keys = hideKey;
    log.written(request('/b?k=secret'), response(200), now());
    expect(lines).toEqual([
      'GET /a 200 0.0ms',
      'GET /a 200 0.0ms',
      'GET /a 404 0.0ms',
      'HEAD /a 404 0.0ms',
      'HEAD /a 404 1.3ms',
      'HEAD /a aborted 1.3ms',
      'GET /b?k=secret 200 0.0ms',
      'GET /b?k=$KEY 200 0.0ms',
    ]);
  });
});
