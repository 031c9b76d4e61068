import { describe, expect, it } from 'vitest';
import { coveringCosts, coveringSet } from '../../../src/contract/material/covering-set.ts';
import { createListingModel } from '../../../src/contract/material/listing-model.ts';
import { pairsOf } from '../../../src/contract/model/pair-tally.ts';
import { createReferencePages } from '../../../src/contract/explore/reference-pages.ts';
import type { Listing } from '../../../src/contract/model/listing.ts';
import type { OperationContext } from '../../../src/contract/model/context.ts';
import type { Exchange, FetchLike } from '../../../src/contract/types.ts';
import { generateDataset } from '../../../src/fixtures/generate-dataset.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { listingParameters } from '../../../src/spec/listing-parameters.ts';
import { listOperations } from '../../../src/spec/operations.ts';
import { runInProcess, spec } from '../../helpers.ts';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const operation = listOperations(spec.document).find((o) => o.operationId === 'listAlerts')!;
const parameters = listingParameters(operation);
const listingOf = (records: readonly Record<string, unknown>[]): Listing => ({
  records,
  complete: true,
  pages: 1,
  pageExchanges: [],
  size: 100,
  maxPages: 50,
});
const alerts = generateDataset(spec.document, { seed: 4, counts: { alerts: 130, sensors: 0 } }).alerts as Record<string, unknown>[];
const model = createListingModel(listingOf(alerts));

describe('the covering set: every pair of parameter classes, whatever the seed', () => {
  it.each(SEEDS)('seed %i: 112 requests hold all 250 pairs of page × pageSize × search classes', (seed) => {
    const { requests, pairs } = coveringSet(model, parameters, seed);
    expect(requests).toHaveLength(112);
    expect(pairs).toBe(250);
    const classes = (name: 'page' | 'pageSize' | 'search') => new Set(requests.map((r) => r.classes[name]));
    expect([...classes('page')].sort()).toEqual(['absent', 'far', 'first', 'last', 'middle', 'past']);
    expect([...classes('search')].sort()).toEqual(['absent', 'absent-term', 'empty', 'fragment', 'hazard', 'recased', 'whole']);
    expect([...classes('pageSize')].sort()).toEqual(
      [
        'absent',
        '1',
        '2',
        'small odd',
        '1..10',
        '11..20',
        '21..30',
        '31..40',
        '41..50',
        '51..60',
        '61..70',
        '71..80',
        '81..90',
        '91..100',
        '99',
        '100',
      ].sort(),
    );
    const held = new Set(requests.flatMap((r) => pairsOf(r.classes)));
    expect(held.size).toBe(6 * 16 + 6 * 7 + 16 * 7);
    // Each request is what its classes say.
    for (const { request, classes: c } of requests) {
      expect(request.page?.at ?? 'absent').toBe(c.page);
      expect(request.term?.kind ?? 'absent').toBe(c.search);
      if (c.pageSize === 'absent') expect(request.pageSize).toBeUndefined();
      const range = /^(\d+)\.\.(\d+)$/.exec(c.pageSize);
      if (range) {
        expect(request.pageSize).toBeGreaterThanOrEqual(Number(range[1]));
        expect(request.pageSize).toBeLessThanOrEqual(Number(range[2]));
      }
      if (c.pageSize === 'small odd') expect([3, 5, 7]).toContain(request.pageSize);
    }
  });

  it('draws the values inside a class from the seed: the same seed gives the same set, another seed other values', () => {
    const sizes = (seed: number) => coveringSet(model, parameters, seed).requests.map((r) => r.request.pageSize ?? 0);
    const terms = (seed: number) => coveringSet(model, parameters, seed).requests.map((r) => r.request.term?.text ?? '');
    expect(sizes(3)).toEqual(sizes(3));
    expect(terms(3)).toEqual(terms(3));
    expect(new Set(SEEDS.map((s) => sizes(s).join())).size).toBeGreaterThan(5);
    expect(new Set(SEEDS.map((s) => terms(s).join())).size).toBe(SEEDS.length);
  });

  it('a listing with no text to take a term from sends those requests without a search, keeping their other pairs', () => {
    const bare = createListingModel(listingOf(alerts.map((_, i) => ({ n: i }))));
    const { requests, pairs } = coveringSet(bare, parameters, 1);
    expect(requests.filter((r) => ['whole', 'fragment', 'recased'].includes(r.classes.search))).toEqual([]);
    const held = new Set(requests.flatMap((r) => pairsOf(r.classes)));
    expect(held.size).toBeLessThan(pairs);
    // page × pageSize is whole still.
    expect([...held].filter((p) => p.startsWith('page ') && p.includes('× pageSize')).length).toBe(6 * 16);
  });
});

describe('reference pages', () => {
  it('keep a control-character term apart from no search at all', async () => {
    const sent: string[] = [];
    const send = async (query: Record<string, string>) => {
      sent.push(JSON.stringify(query));
      return { operationId: 'listAlerts', request: { method: 'GET', url: JSON.stringify(query), headers: {} } } as Exchange;
    };
    const reference = createReferencePages({ parameters } as OperationContext, send);
    await reference.slice(undefined, 0, 10);
    await reference.slice('\u0000', 0, 10);
    expect(sent).toEqual([
      JSON.stringify({ page: '1', pageSize: '100' }),
      JSON.stringify({ search: '\u0000', page: '1', pageSize: '100' }),
    ]);
  });
});

describe('faults confined to a pair of classes are found for every seed, whatever --examples', () => {
  const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 130, sensors: 30 } } });
  /** The number of results the mock has for a search (its X-Total-Count). */
  const results = async (request: Request) => {
    const url = new URL(request.url);
    url.searchParams.set('page', '1');
    url.searchParams.set('pageSize', '1');
    return Number((await app.fetch(new Request(url, { headers: request.headers }))).headers.get('x-total-count'));
  };
  const searchIgnoredFor41to60: FetchLike = (request) => {
    const url = new URL(request.url);
    const size = Number(url.searchParams.get('pageSize'));
    if (size < 41 || size > 60) return app.fetch(request);
    url.searchParams.delete('search');
    return app.fetch(new Request(url, { headers: request.headers }));
  };
  const crashJustPastTheEnd: FetchLike = async (request) => {
    const url = new URL(request.url);
    const term = url.searchParams.get('search');
    if (!term) return app.fetch(request);
    const size = Number(url.searchParams.get('pageSize') ?? 20);
    const total = await results(request);
    if (total > 0 && Number(url.searchParams.get('page') ?? 1) === Math.ceil(total / size) + 1)
      return new Response('Internal Server Error', { status: 500 });
    return app.fetch(request);
  };

  it.each(SEEDS)('seed %i: search ignored for pageSize 41..60 is an explore_pages error', async (seed) => {
    const report = await runInProcess(searchIgnoredFor41to60, { seed, examples: 1, checks: ['explore_pages'] });
    expect(report.verdict).toBe('not conformant');
    const failure = report.outcomes.find((o) => o.status === 'failed')?.failures[0];
    expect(failure).toMatchObject({ severity: 'error' });
    expect(failure?.message).toMatch(/of size (4[1-9]|5\d|60) searching .*\(covering request \d+ of 112\)$/);
  });

  it.each(SEEDS)('seed %i: a 500 for the page just past the end of a search is a not_a_server_error error', async (seed) => {
    const report = await runInProcess(crashJustPastTheEnd, { seed, examples: 1, checks: ['explore_pages', 'not_a_server_error'] });
    expect(report.verdict).toBe('not conformant');
    const failures = report.outcomes.filter((o) => o.check === 'not_a_server_error' && o.status === 'failed').flatMap((o) => o.failures);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toMatchObject({ severity: 'error' });
    expect(failures[0]!.exchange!.request.url).toMatch(/search=.*&page=\d+/);
  });
});

describe('the covering set in the order a run trimmed to fit its time judges it', () => {
  it.each(SEEDS)('seed %i: the first requests hold every class of each parameter, at the cost coveringCosts counts', (seed) => {
    const { requests } = coveringSet(model, parameters, seed);
    const { prefixes, everyClass } = coveringCosts(parameters);
    expect(prefixes).toHaveLength(requests.length + 1);
    const first = requests.slice(0, everyClass);
    expect(new Set(first.map((r) => r.classes.page)).size).toBe(6);
    expect(new Set(first.map((r) => r.classes.pageSize)).size).toBe(16);
    expect(new Set(first.map((r) => r.classes.search)).size).toBe(7);
    // Far fewer than the whole set, and few of them searches: the cheap pairs come first.
    expect(everyClass).toBeLessThan(40);
    for (const k of [everyClass, 40, 60, 112]) {
      const prefix = requests.slice(0, k);
      const searches = prefix.filter((r) => r.request.term?.text);
      const terms = new Set(searches.map((r) => r.request.term!.text)).size;
      expect(prefixes[k]!.pages).toBe(k - searches.length);
      // One and a half reference pages per term: a term drawn twice for two slots is counted twice.
      expect(prefixes[k]!.searches - (searches.length + 1.5 * terms)).toBeGreaterThanOrEqual(0);
      expect(prefixes[k]!.searches - (searches.length + 1.5 * terms)).toBeLessThanOrEqual(3);
    }
    expect(prefixes[everyClass]!.searches).toBeLessThan(prefixes[112]!.searches / 4);
  });
});
