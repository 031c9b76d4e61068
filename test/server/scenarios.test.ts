import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type ScenarioOptions } from '../../src/server/create-app.ts';
import { KEY, defaultApp, get, spec, validator } from '../helpers.ts';

const small = { seed: 5, counts: { alerts: 30, sensors: 10 } };
const withScenarios = (scenarios: ScenarioOptions, seed = 5) => createApp({ spec, dataset: { ...small, seed }, scenarios });
afterEach(() => vi.useRealTimers());

describe('forced states: Prefer code and __code', () => {
  const app = defaultApp();

  it.each([400, 401, 403, 404, 429, 500, 503])('Prefer: code=%i answers that status as problem+json', async (status) => {
    const response = await get(app, '/alert', { 'x-api-key': KEY, Prefer: `code=${status}` });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('preference-applied')).toBe(`code=${status}`);
    const body = await response.json();
    expect(body).toMatchObject({ status, detail: `Forced by Prefer: code=${status}.` });
    expect(validator.validate('Problem', body)).toEqual([]);
    expect(response.headers.get('retry-after')).toBe(status === 429 || status === 503 ? '1' : null);
  });

  it('does the same with ?__code=, and needs no key', async () => {
    const response = await get(app, '/sensor?__code=503', {});
    expect(response.status).toBe(503);
    // Reported as applied too (issue 11): a client sees what it got, whichever way it asked.
    expect(response.headers.get('preference-applied')).toBe('code=503');
    expect(await response.json()).toMatchObject({ detail: 'Forced by __code=503.' });
  });

  it('ignores statuses the spec does not document, and unknown preferences', async () => {
    for (const prefer of ['code=418', 'code=200', 'code=abc', 'respond-async, wait=5', 'handling=lenient', 'example=nope']) {
      const response = await get(app, '/alert', { 'x-api-key': KEY, Prefer: prefer });
      expect(response.status, prefer).toBe(200);
      expect(await response.json()).toHaveLength(20);
    }
    expect((await get(app, '/alert?__code=302')).status).toBe(200);
  });

  it('Prefer: example=empty answers 200 [] with a total of 0', async () => {
    const response = await get(app, '/alert?page=2', { 'x-api-key': KEY, Prefer: 'example=empty' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    expect(response.headers.get('x-total-count')).toBe('0');
    expect(response.headers.get('preference-applied')).toBe('example=empty');
  });

  it('still requires a key for example=empty', async () => {
    expect((await get(app, '/alert', { Prefer: 'example=empty' })).status).toBe(401);
  });

  it('lets a browser send Prefer and read Retry-After', async () => {
    const preflight = await app.request('/alert', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'prefer,x-api-key',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('prefer');
    const response = await get(app, '/alert', { 'x-api-key': KEY, Prefer: 'code=429', Origin: 'http://localhost:3000' });
    expect(response.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
  });
});

describe('latency', () => {
  /**
   * How long each of `count` requests waited, on a fake clock. (Not a spy on setTimeout: vitest's
   * restoreAllMocks at the end of the file would put back the fake setTimeout it wrapped, and the next
   * file in this worker would wait for ever.)
   */
  async function delays(app: ReturnType<typeof createApp>, count: number, headers: Record<string, string> = { 'x-api-key': KEY }) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'], now: 0 });
    const seen: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const before = Date.now();
      const pending = app.request('/alert', { headers });
      await vi.runAllTimersAsync();
      expect((await pending).status).toBe(200);
      seen.push(Date.now() - before);
    }
    vi.useRealTimers();
    return seen;
  }

  it('waits a fixed latency', async () => {
    expect(await delays(withScenarios({ latency: { min: 200, max: 200 } }), 3)).toEqual([200, 200, 200]);
  });

  it('draws a range from the seed: the same seed replays the same delays', async () => {
    const a = await delays(withScenarios({ latency: { min: 100, max: 800 } }), 20);
    const b = await delays(withScenarios({ latency: { min: 100, max: 800 } }), 20);
    const c = await delays(withScenarios({ latency: { min: 100, max: 800 } }, 6), 20);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a.every((d) => d >= 100 && d <= 800)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(10);
  });

  it('honours Prefer: delay=N per request, capped at a minute', async () => {
    expect(await delays(defaultApp(), 1, { 'x-api-key': KEY, Prefer: 'delay=300' })).toEqual([300]);
    expect(await delays(defaultApp(), 1, { 'x-api-key': KEY, Prefer: 'delay=999999' })).toEqual([60_000]);
    const response = await (async () => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      const pending = get(defaultApp(), '/alert', { 'x-api-key': KEY, Prefer: 'delay=5' });
      await vi.runAllTimersAsync();
      return pending;
    })();
    expect(response.headers.get('preference-applied')).toBe('delay=5');
  });
});

describe('injected faults', () => {
  const statuses = async (app: ReturnType<typeof createApp>, count: number) => {
    const out: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const response = await get(app, `/sensor?page=${(i % 3) + 1}`);
      if (response.status >= 500) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(validator.validate('Problem', await response.json())).toEqual([]);
      }
      out.push(response.status);
    }
    return out;
  };

  it('fails about the error rate with 500 or 503, replayably from the seed', async () => {
    const a = await statuses(withScenarios({ errorRate: 0.3 }), 200);
    const b = await statuses(withScenarios({ errorRate: 0.3 }), 200);
    expect(a).toEqual(b);
    const failed = a.filter((s) => s >= 500).length;
    expect(failed).toBeGreaterThan(35);
    expect(failed).toBeLessThan(85);
    expect(new Set(a)).toEqual(new Set([200, 500, 503]));
    expect(await statuses(withScenarios({ errorRate: 0.3 }, 99), 200)).not.toEqual(a);
  });

  it('rate-limits each key per second with 429 and Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T10:00:00.100Z'));
    const app = createApp({ spec, dataset: small, apiKeys: [KEY, 'other-key'], scenarios: { rateLimit: 3 } });
    const codes = [];
    for (let i = 0; i < 5; i += 1) codes.push((await get(app, '/alert')).status);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const limited = await get(app, '/alert');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ status: 429, type: 'urn:tempmon:problem:rate-limited' });
    expect((await get(app, '/alert', { 'x-api-key': 'other-key' })).status).toBe(200);
    vi.setSystemTime(new Date('2026-11-25T10:00:01.000Z'));
    expect((await get(app, '/alert')).status).toBe(200);
  });
});
