import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { HAR_BODY_BYTES, openHarLog, withHarEntries } from '../../../src/contract/reports/har-log.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { ContractSetupError, type FetchLike } from '../../../src/contract/types.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, spec } from '../../helpers.ts';
import { FAULTS, brokenMock } from '../targets/broken-mocks.ts';

// har-schema is CommonJS JSON without types; draft-06 is the draft its schemas are written in.
const require = createRequire(import.meta.url);
const harSchemas = require('har-schema') as Record<string, object>;
const draft06 = require('ajv/dist/refs/json-schema-draft-06.json') as object;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const SECRET = 'har-secret-key-0123456789';
const HEADER_SECRET = 'trace-value-987654';
const app = createApp({ spec, apiKeys: [SECRET], dataset: { seed: 5, counts: { alerts: 40, sensors: 12 } } });
const dir = mkdtempSync(join(tmpdir(), 'tempmon-har-'));

/** HAR 1.2's JSON schema (the har-schema package, draft-06) compiled with the project's Ajv. */
function harValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft06);
  addFormats(ajv);
  for (const [name, schema] of Object.entries(harSchemas)) if (name !== 'har') ajv.addSchema(schema);
  return ajv.compile(harSchemas.har!);
}
const validHar = harValidator();

/** Runs the kit against `fetch`, writing the HAR to a new file; resolves with the report (or the error) and the file's JSON. */
async function runWithHar(fetch: FetchLike, name: string, extra: Partial<Parameters<typeof runContract>[0]> = {}) {
  const path = join(dir, `${name}.har`);
  const har = openHarLog(path, '0.0.0-test');
  let outcome: Awaited<ReturnType<typeof runContract>> | Error;
  try {
    outcome = await runContract({
      target: 'http://har.test',
      apiKey: SECRET,
      document: spec.document,
      fetch,
      seed: 4,
      examples: 10,
      headers: { 'x-trace': HEADER_SECRET },
      record: (exchange, place) => har.add(exchange, place),
      ...extra,
    });
  } catch (error) {
    outcome = error as Error;
  } finally {
    har.close();
  }
  const text = readFileSync(path, 'utf8');
  return { outcome, text, log: JSON.parse(text).log, har };
}

describe('--har: every exchange of the run as HAR 1.2', () => {
  it('is valid HAR 1.2 holding every request of the run, and each failure names its entry', async () => {
    // Every alert page answers records with an undocumented field: findings with exchanges to name.
    const fetch: FetchLike = async (request) => {
      const response = await app.fetch(request);
      if (!request.url.includes('/alert') || response.status !== 200) return response;
      const records = (await response.json()) as Record<string, unknown>[];
      return Response.json(
        records.map((r) => ({ ...r, internal_note: 'x' })),
        { headers: response.headers },
      );
    };
    const { outcome, log, text, har } = await runWithHar(fetch, 'run');
    expect(validHar({ log }), JSON.stringify(validHar.errors?.slice(0, 3))).toBe(true);
    // The schema is the judge: an entry without its request and response is refused.
    expect(validHar({ log: { ...log, entries: [{ startedDateTime: log.entries[0].startedDateTime }] } })).toBe(false);
    if (outcome instanceof Error) throw outcome;
    expect(log.entries).toHaveLength(outcome.summary.requests);
    const shown = withHarEntries(outcome, har);
    const failures = shown.outcomes.flatMap((o) => o.failures);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures.filter((f) => f.exchange)) {
      expect(failure.harEntries).toHaveLength(1);
      expect(log.entries[failure.harEntries![0]!].request.url).toBe(failure.exchange!.request.url);
    }
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(HEADER_SECRET);
  });

  it('names every exchange a finding compares (the same request read twice, for stable_order)', async () => {
    let n = 0;
    // Every answer in another order: the same request read twice differs.
    const fetch: FetchLike = async (request) => {
      const response = await app.fetch(request);
      if (response.status !== 200) return response;
      const records = (await response.json()) as unknown[];
      n += 1;
      const by = records.length > 1 ? n % records.length : 0;
      return Response.json([...records.slice(by), ...records.slice(0, by)], { headers: response.headers });
    };
    const { outcome, log, har } = await runWithHar(fetch, 'compared', { checks: ['stable_order'] });
    if (outcome instanceof Error) throw outcome;
    const failures = withHarEntries(outcome, har).outcomes.flatMap((o) => o.failures);
    const compared = failures.find((f) => f.message.startsWith('the same request gave different records or order'))!;
    expect(compared.harEntries).toHaveLength(2);
    const [a, b] = compared.harEntries!.map((i) => log.entries[i].request.url);
    expect(a).toBe(b);
  });

  it('names the listing pages a generated request was judged against (explore_search, on the whole listing)', async () => {
    // Searches answer their results in reverse order: explore_search's model disagrees.
    const fetch: FetchLike = async (request) => {
      const response = await app.fetch(request);
      if (!new URL(request.url).searchParams.get('search') || response.status !== 200) return response;
      const records = (await response.json()) as unknown[];
      return Response.json(records.reverse(), { headers: response.headers });
    };
    const { outcome, log, har } = await runWithHar(fetch, 'explored', { checks: ['explore_search'], examples: 30 });
    if (outcome instanceof Error) throw outcome;
    const failure = withHarEntries(outcome, har).outcomes.flatMap((o) => o.failures)[0]!;
    expect(failure.message).toMatch(/differs from the model/);
    const urls = failure.harEntries!.map((i) => new URL(log.entries[i].request.url));
    expect(urls[0]!.searchParams.get('search')).not.toBeNull();
    // Then the listing's pages, read without search at the largest size.
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls.slice(1)) expect([url.searchParams.get('search'), url.searchParams.get('pageSize')]).toEqual([null, '100']);
  });

  it('redacts the key and --header values in every form the other reports do, wherever the target echoes them', async () => {
    const echo: FetchLike = async (request) => {
      const key = request.headers.get('x-api-key') ?? '';
      const trace = request.headers.get('x-trace') ?? '';
      const response = await app.fetch(request);
      const headers = new Headers(response.headers);
      headers.set('x-echo', key);
      headers.set('x-echo-base64', Buffer.from(key).toString('base64'));
      headers.set('location', `/login?next=${encodeURIComponent(key)}&t=${trace}`);
      headers.set(`x-${key.toLowerCase()}`, 'named after the key');
      const body = `{"echo":"${key}","upper":"${key.toUpperCase()}","trace":"${trace}","escaped":"${[...key].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('')}"}`;
      return new Response(response.status === 200 ? body : await response.text(), { status: response.status, headers });
    };
    const { log, text } = await runWithHar(echo, 'echo', { checks: ['ignored_auth', 'stable_order'] });
    expect(validHar({ log })).toBe(true);
    expect(log.entries.length).toBeGreaterThan(0);
    for (const form of [SECRET, SECRET.toUpperCase(), encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64'), HEADER_SECRET])
      expect(text).not.toContain(form);
    expect(text.toLowerCase()).not.toContain(SECRET.slice(0, 12));
  });

  it('holds no look-alike of a short key: the wrong keys the kit sends are redacted as secrets of their request', async () => {
    // 12 characters: redacted only whole; its look-alikes (cut, edited, extended) together would spell it.
    const short = 'Zq7xkW9pLmQ4';
    const shortApp = createApp({ spec, apiKeys: [short], dataset: { seed: 5, counts: { alerts: 40, sensors: 12 } } });
    const { log, text } = await runWithHar(async (request) => shortApp.fetch(request), 'short-key', {
      apiKey: short,
      checks: ['ignored_auth', 'explore_pages'],
    });
    expect(validHar({ log })).toBe(true);
    const keyHeaders = log.entries.flatMap((e: { request: { headers: { name: string; value: string }[] } }) =>
      e.request.headers.filter((h) => h.name === 'x-api-key').map((h) => h.value),
    );
    expect(keyHeaders.length).toBeGreaterThan(10);
    for (let at = 0; at + 6 <= short.length; at += 1) expect(text.toLowerCase()).not.toContain(short.slice(at, at + 6).toLowerCase());
  });

  it('is written, complete and valid, when the run cannot go on (the key refused: exit 2), with what was sent', async () => {
    const { outcome, log } = await runWithHar(async () => Response.json({ title: 'no' }, { status: 401 }), 'refused');
    expect(outcome).toBeInstanceOf(ContractSetupError);
    expect(validHar({ log })).toBe(true);
    // One probe per listing, each refused.
    expect(log.entries.map((e: { response: { status: number } }) => e.response.status)).toEqual(LISTINGS.map(() => 401));
  });

  it(`cuts a body over ${HAR_BODY_BYTES / 1024} KiB, saying in a comment how much was left out`, async () => {
    const big = 'é'.repeat(HAR_BODY_BYTES);
    const { log } = await runWithHar(async () => new Response(big, { status: 500, headers: { 'content-type': 'text/plain' } }), 'big', {
      checks: ['not_a_server_error'],
    });
    expect(validHar({ log })).toBe(true);
    const content = log.entries[0].response.content;
    expect(content.size).toBe(Buffer.byteLength(big));
    expect(Buffer.byteLength(content.text)).toBeLessThanOrEqual(HAR_BODY_BYTES);
    expect(content.comment).toBe(`body cut at ${HAR_BODY_BYTES} of ${2 * HAR_BODY_BYTES} bytes: ${HAR_BODY_BYTES} bytes left out`);
  });

  it('grows as the run goes: entries are on disk while later requests are still to be sent', async () => {
    const path = join(dir, 'run.har');
    let sent = 0;
    let onDiskAt60: number | undefined;
    await runWithHar(async (request) => {
      sent += 1;
      if (sent === 60) onDiskAt60 = (readFileSync(path, 'utf8').match(/"startedDateTime"/g) ?? []).length;
      return app.fetch(request);
    }, 'run');
    // At most 8 requests in flight: by the 60th, most answers before it have been written.
    expect(onDiskAt60).toBeGreaterThanOrEqual(40);
  });

  it('puts the entries in the order of their places when closed, each index then final', () => {
    const path = join(dir, 'places.har');
    const har = openHarLog(path, '0.0.0-test');
    const exchange = (n: number) => ({
      operationId: 'listAlerts',
      request: { method: 'GET', url: `http://har.test/alert?page=${n}`, headers: {} },
      startedDateTime: new Date(n * 1000).toISOString(),
      response: { status: 200, headers: {}, text: '[]', json: [], durationMs: 1 },
    });
    const [first, second, third, copy] = [exchange(1), exchange(2), exchange(3), exchange(4)];
    har.add(third, [1, 0, 0]);
    har.add(second, [0, 1, 0]);
    har.add(copy, [0, 0, 0, 1]);
    har.add(first, [0, 0, 0]);
    // Before closing: in the order the answers arrived.
    expect(har.indexOf(first)).toBe(3);
    const urls = () => JSON.parse(readFileSync(path, 'utf8')).log.entries.map((e: { request: { url: string } }) => e.request.url);
    har.close();
    expect(urls()).toEqual([first, copy, second, third].map((e) => e.request.url));
    expect([first, copy, second, third].map((e) => har.indexOf(e))).toEqual([0, 1, 2, 3]);
    expect(validHar(JSON.parse(readFileSync(path, 'utf8')))).toBe(true);
  });

  describe('names every exchange a finding rests on', () => {
    const fault = (name: string) => brokenMock(app, FAULTS.find((f) => f.name === name)!);
    /** The named entries' queries, as `page/pageSize/search` (search omitted when none). */
    async function named(fetch: FetchLike, check: string, extra: Partial<Parameters<typeof runContract>[0]> = {}) {
      const { outcome, log, har } = await runWithHar(fetch, check, { checks: [check], ...extra });
      if (outcome instanceof Error) throw outcome;
      const failures = withHarEntries(outcome, har).outcomes.flatMap((o) => o.failures);
      expect(failures.length, `${check} found nothing`).toBeGreaterThan(0);
      return failures.map((failure) => ({
        message: failure.message,
        queries: (failure.harEntries ?? []).map((i) => {
          const query = new URL(log.entries[i].request.url).searchParams;
          return [query.get('page'), query.get('pageSize'), ...(query.has('search') ? [query.get('search')] : [])].join('/');
        }),
      }));
    }

    it('documented_order: the listing page holding the two records out of order', async () => {
      const [failure] = await named(fault('sorted oldest first'), 'documented_order');
      expect(failure!.queries).toEqual(['1/100']);
    });

    it('link_header: page 2 of size 3, and for next and last the listing pages its size rests on', async () => {
      const [failure] = await named(fault('Link next skips a page'), 'link_header');
      expect(failure!.message).toMatch(/rel="next"/);
      expect(failure!.queries).toEqual(['2/3', '1/100']);
    });

    it('page_size_conformance: the page of the size asked for, and the listing pages its count rests on', async () => {
      // Every page holds the default 20 records: the listing read at size 100 ends after its first page.
      const failures = await named(fault('pageSize ignored'), 'page_size_conformance');
      const one = failures.find((f) => f.message === 'pageSize=1 gave 20 records')!;
      expect(one.queries).toEqual(['1/1', '1/100']);
    });

    it("search_finds_record: the search's pages, and the listing page the record was read from", async () => {
      // Every search answers [] (a search index never built).
      const empty: FetchLike = async (request) =>
        new URL(request.url).searchParams.get('search') ? Response.json([], { headers: { 'x-total-count': '0' } }) : app.fetch(request);
      const [failure] = await named(empty, 'search_finds_record');
      expect(failure!.message).toMatch(/did not find/);
      expect(failure!.queries).toHaveLength(2);
      expect(failure!.queries[0]).toMatch(/^1\/100\/.+/);
      expect(failure!.queries[1]).toBe('1/100');
    });

    it('explore_search past --max-pages: the generated request, the whole answer for its term, and the pages read', async () => {
      const long = createApp({ spec, apiKeys: [SECRET], dataset: { seed: 5, counts: { alerts: 250, sensors: 12 } } });
      // Searches answer their results in reverse order.
      const reversed: FetchLike = async (request) => {
        const response = await long.fetch(request);
        if (!new URL(request.url).searchParams.get('search') || response.status !== 200) return response;
        return Response.json(((await response.json()) as unknown[]).reverse(), { headers: response.headers });
      };
      const failures = await named(reversed, 'explore_search', { maxPages: 1, examples: 30 });
      const failure = failures.find((f) => f.queries.some((q) => q.split('/').length === 3))!;
      // The term's whole answer at the largest size (the page past --max-pages that says it ends, then its pages)
      // and the listing's first page: more than the one request shown.
      expect(failure.queries.length).toBeGreaterThan(2);
      expect(failure.queries).toContain('1/100');
      expect(failure.queries.filter((q) => q.startsWith('2/100/'))).toHaveLength(1);
    });
  });
});
