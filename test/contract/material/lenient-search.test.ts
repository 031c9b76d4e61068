import { describe, expect, it } from 'vitest';
import { containsLeniently, lenientText, searchAnswerFinding } from '../../../src/contract/material/lenient-match.ts';
import type { FetchLike } from '../../../src/contract/types.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { runInProcess, spec } from '../../helpers.ts';
import type { Json } from '../targets/broken-mocks.ts';
import { allRecords } from '../targets/unlisted-faults.ts';

describe('one grade for one observation: the lenient oracle', () => {
  it('reads text as the most lenient reasonable search would', () => {
    expect(lenientText('  Ｔempérature \t Straße ')).toBe('temperature strasse');
    expect(lenientText('DİYARBAKIR')).toBe(lenientText('diyarbakır'));
    expect(lenientText('   ')).toBe('');
    expect(containsLeniently({ battery_level: 42, offline: false }, '42')).toBe(true);
    expect(containsLeniently({ offline: false }, 'FALSE')).toBe(true);
    expect(containsLeniently({ site: 'Zürich depot' }, 'zurich')).toBe(true);
    expect(containsLeniently({ tags: ['cold', { room: 'B-12' }] }, 'b-12')).toBe(true);
    expect(containsLeniently({ site: 'Zürich depot' }, '%')).toBe(false);
  });

  it('grades: none containing the term even leniently is an error; some only leniently or not at all, a warning', () => {
    const records = [
      { id: 'a', site: 'Zürich depot' },
      { id: 'b', site: 'Basel hub' },
    ];
    expect(searchAnswerFinding('%', records)).toMatchObject({ severity: 'error', absolute: true, actual: 'a, b' });
    expect(searchAnswerFinding('a.c', records)?.severity).toBe('error');
    // Zürich only read leniently; Basel not at all: a warning either way.
    expect(searchAnswerFinding('zurich', records)).toMatchObject({ severity: 'warning', actual: 'a, b' });
    expect(searchAnswerFinding('zurich', records.slice(0, 1))?.severity).toBe('warning');
    expect(searchAnswerFinding('zürich', records.slice(0, 1))).toBeUndefined();
    // An all-space term is the empty search: no filter, nothing to grade.
    expect(searchAnswerFinding('   ', records)).toBeUndefined();
    expect(searchAnswerFinding('%', [])).toBeUndefined();
  });
});

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 130, sensors: 30 } } });
const strings = (value: unknown): string[] =>
  value === null || value === undefined ? [] : typeof value === 'object' ? Object.values(value).flatMap(strings) : [String(value)];

/**
 * The mock, but searching with `matches` over every record, in listing order, paged as asked (what a real
 * server with its own matching rule does); everything else answered by the mock itself.
 */
function searchingWith(matches: (record: Json, term: string) => boolean): FetchLike {
  return async (request) => {
    const url = new URL(request.url);
    const term = url.searchParams.get('search');
    if (term === null) return app.fetch(request);
    url.searchParams.delete('search');
    const plain = await app.fetch(new Request(url, { headers: request.headers }));
    if (plain.status !== 200) return plain;
    const found = (await allRecords(request, async (r) => app.fetch(r))).filter((record) => matches(record, term));
    const size = Number(url.searchParams.get('pageSize') ?? '20');
    const page = Number(url.searchParams.get('page') ?? '1');
    return Response.json(found.slice((page - 1) * size, page * size), { headers: { 'x-total-count': String(found.length) } });
  };
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFKC').toLowerCase();

describe('conformant servers whose search is more lenient than the spec assumes', () => {
  it.each([
    ['matching accent- and width-insensitively', (r: Json, t: string) => strings(r).some((s) => fold(s).includes(fold(t)))],
    ['trimming the term', (r: Json, t: string) => strings(r).some((s) => s.toLowerCase().includes(t.trim().toLowerCase()))],
    ['searching numbers as text', (r: Json, t: string) => strings(r).some((s) => s.toLowerCase().includes(t.toLowerCase()))],
  ])('a server %s is conformant', async (_, matches) => {
    const report = await runInProcess(searchingWith(matches), { seed: 3, examples: 20 });
    const errors = report.outcomes.flatMap((o) => o.failures.filter((f) => f.severity === 'error').map((f) => `${o.check}: ${f.message}`));
    expect(errors).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });
});

describe('conformant servers that read integers otherwise', () => {
  it('a server answering 400 to leading zeros (page=010) is conformant', async () => {
    const strictZeros: FetchLike = (request) =>
      /[?&](page|pageSize)=0\d/.test(request.url)
        ? Promise.resolve(Response.json({ title: 'bad page' }, { status: 400, headers: { 'content-type': 'application/problem+json' } }))
        : app.fetch(request);
    const report = await runInProcess(strictZeros, { seed: 3, examples: 20 });
    expect(report.outcomes.filter((o) => o.status === 'failed').map((o) => o.check)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('a server whose default page size is 25, not the 20 the spec assumes, is conformant (pages without pageSize judged by the stated rules)', async () => {
    const default25: FetchLike = (request) => {
      const url = new URL(request.url);
      if (!url.searchParams.has('pageSize')) url.searchParams.set('pageSize', '25');
      return app.fetch(new Request(url, { headers: request.headers }));
    };
    const report = await runInProcess(default25, { seed: 3, examples: 20 });
    expect(report.outcomes.filter((o) => o.status === 'failed').map((o) => o.check)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });
});

describe('conformant servers that close the other roads otherwise', () => {
  it.each([
    [
      'redirecting /alert/ to /alert (301)',
      (request: Request) =>
        new URL(request.url).pathname.endsWith('/')
          ? new Response(null, { status: 301, headers: { location: new URL(request.url).pathname.slice(0, -1) } })
          : app.fetch(request),
    ],
    [
      'answering 403 to a missing key',
      async (request: Request) => {
        const response = await app.fetch(request);
        return response.status === 401 && !request.headers.get('x-api-key')
          ? new Response(response.body, { status: 403, headers: response.headers })
          : response;
      },
    ],
  ])('a server %s is conformant', async (_, fetch) => {
    const report = await runInProcess(async (request) => fetch(request), { seed: 3, examples: 20 });
    expect(report.outcomes.filter((o) => o.status === 'failed').map((o) => o.check)).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });
});
