import { describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { KEY, LISTINGS, spec } from '../../helpers.ts';
import { largestPageSize } from '../../../src/contract/model/listing-query.ts';
import { listingParameters } from '../../../src/spec/listing-parameters.ts';
import { LONG_LISTING_VARIANTS, longListing } from '../targets/long-listing.ts';
import { flooding, growing, liveTarget } from '../targets/live-targets.ts';
import { alerts, problems, run } from './live-runs.ts';

/** The checks that judge pages read past --max-pages (the end looked for, pairs sampled on the way) against it. */
const FAR = ['pagination_consistency', 'page_size_conformance', 'page_past_end'];

describe('pages past --max-pages read while records arrive: asked again together before a finding', () => {
  it.each([
    [3, 1],
    [10, 1],
    [3, 2],
    [10, 2],
  ])(
    'a listing longer than --max-pages, an alert arriving every %i requests (--max-pages %i): every check passes',
    async (every, maxPages) => {
      // Read one after another as the end is looked for, pages share the record an arrival pushed on, the end moves,
      // answers kept from before are stale, and the records read that a term finds no longer lead its answer.
      const report = await run(liveTarget(growing(every)), undefined, { maxPages });
      expect(problems(report)).toEqual([]);
      expect(report.outcomes.filter((o) => o.status === 'warned').map((o) => `${o.check}: ${o.failures[0]?.message}`)).toEqual([]);
      expect(report.verdict).toBe('conformant');
    },
  );

  it('more alerts arriving between two reads of the head than a page holds: the pages below it are read, every version placed', async () => {
    const report = await run(liveTarget(flooding(10)), undefined, { maxPages: 5, seed: 2 });
    expect(problems(report)).toEqual([]);
    expect(report.outcomes.filter((o) => o.status === 'warned').map((o) => `${o.check}: ${o.failures[0]?.message}`)).toEqual([]);
    expect(report.verdict).toBe('conformant');
    // Placed as they come, the arrivals are counted: not one stays past a read of the head the run could not place.
    expect(report.coverage?.find((c) => c.operationId === 'listAlerts')?.consistency?.arrived).toBeGreaterThan(1_000);
    // About a thousand requests to a target in this process: far longer than most tests, more so beside other files.
  }, 60_000);

  it('a target answering one request at a time, an alert arriving every second request: answers compared are each judged by the version their own count names', async () => {
    // No two answers share a moment, asked together or not: only the counts they sent tie each to its version.
    let request = 0;
    const clock = () => {
      request += 1;
      return Math.floor(request / 2);
    };
    const serial = liveTarget(flooding(1), { clock });
    // One request at a time from the kit too: the same requests in the same order on every run.
    const report = await run(serial, undefined, { maxPages: 5, seed: 1, concurrency: 1 });
    // The checks that compare answers pass, the explorations among them: past --max-pages a generated page (or its
    // count) and the target's own pages read after it are never one moment, and are held to each other moved by
    // what arrived between them.
    const compared = [
      'pagination_consistency',
      'stable_order',
      'default_page_size',
      'total_count_header',
      'explore_pages',
      'explore_metadata',
    ];
    expect(report.outcomes.filter((o) => compared.includes(o.check)).map((o) => `${o.operationId} ${o.check} ${o.status}`)).toEqual(
      report.outcomes.filter((o) => compared.includes(o.check)).map((o) => `${o.operationId} ${o.check} passed`),
    );
    expect(problems(report)).toEqual([]);
    expect(report.verdict).toBe('conformant');
    // One request at a time to a target in this process: long, more so beside other files.
  }, 60_000);

  it('pages past --max-pages holding the right records in the wrong order while records arrive: never passed as moved', async () => {
    // Past the first page read (--max-pages 1), a page of any size but the reference's comes reversed: no place the
    // listing moved to gives it.
    const max = largestPageSize(listingParameters(LISTINGS[0]!));
    const reversed = liveTarget(growing(3), {
      page: (found, page, size) => {
        const slice = found.slice((page - 1) * size, page * size);
        return size !== max && (page - 1) * size >= max && slice.length > 1 ? [...slice].reverse() : slice;
      },
    });
    const report = await run(reversed, ['explore_pages'], { maxPages: 1, concurrency: 1 });
    expect(alerts(report, 'explore_pages')?.status).not.toBe('passed');
    expect(report.verdict).not.toBe('conformant');
  });

  it('a request judged again on fresh answers leaves the answers kept for the others: the explorations replay them, not send them again', async () => {
    // Past --max-pages, a failure while records arrive is judged again on answers sent afresh; the other requests'
    // answers kept from before serve the next explorations as they would have (a search costs seconds on a big listing).
    const target = liveTarget(growing(3));
    const sent = new Map<string, number>();
    const counted = (request: Request) => {
      const url = new URL(request.url);
      // A search with a page or a size: the explorations' generated requests and reference pages.
      const paged = url.searchParams.has('page') || url.searchParams.has('pageSize');
      if (url.searchParams.get('search') && paged) sent.set(url.search, (sent.get(url.search) ?? 0) + 1);
      return target(request);
    };
    const report = await run(counted, undefined, { maxPages: 1, seed: 2 });
    expect(report.verdict).toBe('conformant');
    expect([...sent].filter(([, n]) => n > 2)).toEqual([]);
  });

  it.each(LONG_LISTING_VARIANTS.filter((v) => FAR.includes(v.caughtBy)).map((v) => [v.name, v] as const))(
    'still catches %s: it breaks the rule each time the pages are asked together',
    async (_, variant) => {
      const report = await runContract({
        target: 'http://long.test',
        apiKey: KEY,
        document: spec.document,
        fetch: longListing({ variant }),
        seed: 5,
        checks: [variant.caughtBy],
      });
      const failures = report.outcomes.find((o) => o.check === variant.caughtBy && o.operationId === 'listAlerts')?.failures ?? [];
      expect(failures.map((f) => f.message)).toContainEqual(expect.stringMatching(/, and again when asked together 3 times$/));
    },
  );
});
