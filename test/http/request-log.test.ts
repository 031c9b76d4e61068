import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HideKeys } from '../../src/http/hide-keys.ts';
import { requestLog } from '../../src/http/request-log.ts';

const request = (url: string, method = 'GET') => ({ method, url }) as IncomingMessage;
const response = (statusCode: number, destroyed = false) => ({ statusCode, destroyed }) as ServerResponse;

describe('requestLog (compact)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes each replayed request its own line without reading the clock, a line like the last reused only when nothing in it changed', () => {
    const lines: string[] = [];
    const hideKey: HideKeys = (text) => text.replaceAll('secret', '$KEY');
    let keys: HideKeys = (text) => text;
    const log = requestLog(
      'compact',
      (line) => lines.push(line),
      () => keys,
    );
    const clock = vi.spyOn(performance, 'now');
    log.replayed(request('/a'), response(200));
    log.replayed(request('/a'), response(200));
    log.replayed(request('/a'), response(404));
    log.replayed(request('/a', 'HEAD'), response(404));
    log.replayed(request('/a', 'HEAD'), response(404, true));
    log.replayed(request('/b?k=secret'), response(200));
    // The keys change (data reloaded with other keys): the same URL is hidden again.
    keys = hideKey;
    log.replayed(request('/b?k=secret'), response(200));
    expect(lines).toEqual([
      'GET /a 200 replayed',
      'GET /a 200 replayed',
      'GET /a 404 replayed',
      'HEAD /a 404 replayed',
      'HEAD /a aborted replayed',
      'GET /b?k=secret 200 replayed',
      'GET /b?k=$KEY 200 replayed',
    ]);
    expect(clock).not.toHaveBeenCalled();
  });

  it('times a request the app answers from when it took it to when its response closed, dropped or not', () => {
    const lines: string[] = [];
    const log = requestLog(
      'compact',
      (line) => lines.push(line),
      () => (text) => text,
    );
    // A clock read when each request is taken (1000, 998.74, 998.74) and stands at 1000 when they close.
    vi.spyOn(performance, 'now').mockReturnValueOnce(1000).mockReturnValueOnce(998.74).mockReturnValueOnce(998.74).mockReturnValue(1000);
    const answered = (finished: boolean) =>
      Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: finished }) as unknown as ServerResponse;
    const responses = [answered(true), answered(true), answered(false)];
    for (const response of responses) log.watch(request('/a'), response);
    expect(lines).toEqual([]);
    for (const response of responses) response.emit('close');
    log.replayed(request('/a'), response(200));
    expect(lines).toEqual(['GET /a 200 0.0ms', 'GET /a 200 1.3ms', 'GET /a aborted 1.3ms', 'GET /a 200 replayed']);
  });
});
