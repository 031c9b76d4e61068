import { describe, expect, it } from 'vitest';
import { comparedByVersions } from '../../../src/contract/model/compared-by-versions.ts';
import { listingParameters } from '../../../src/spec/listing-parameters.ts';
import type { Exchange } from '../../../src/contract/types.ts';
import type { Judged, ListingVersions } from '../../../src/contract/versions/listing-versions.ts';
import { LISTINGS } from '../../helpers.ts';

const parameters = listingParameters(LISTINGS[0]!);

/** An answer to `query`, whose body names the versions (tops) that give it. */
const answer = (query: string, tops: readonly number[]): Exchange =>
  ({
    request: { method: 'GET', url: `http://t.test${LISTINGS[0]!.path}?${query}`, headers: {} },
    response: { status: 200, headers: {}, text: JSON.stringify(tops), json: tops },
    span: { sent: 0, answered: 1 },
  }) as unknown as Exchange;

/**
 * Versions whose rule reads each answer's giving tops from its body: an answer with none is unexplained, one
 * listed in `newer` shows a version newer than any read of the head.
 */
function versionsOf(newer: readonly Exchange[] = [], fixedTail?: number) {
  const tops = (e: Exchange) => e.response!.json as number[];
  return {
    async judge(e: Exchange): Promise<Judged> {
      if (newer.includes(e)) return { kind: 'unknown', why: 'newer', newer: true };
      return tops(e).length > 0 ? { kind: 'explained' } : { kind: 'unexplained', why: 'none', expected: '' };
    },
    giving: (e: Exchange) => tops(e),
    describe: ({ top }: { top: number }) => `version ${top}`,
    history: { tails: () => ({ low: 0, high: 0 }), fixedTail: () => fixedTail },
  } as unknown as ListingVersions;
}

/** A target answering each request of a group with the tops `next` gives it; the groups' queries are kept. */
function together(next: (query: string, at: number) => readonly number[]) {
  const groups: string[][] = [];
  const sendTogether = (queries: readonly { query: Readonly<Record<string, string>> }[]) => {
    const sent = queries.map((q) => new URLSearchParams(q.query).toString());
    groups.push(sent);
    return sent.map(async (query, at) => answer(query, next(query, at)));
  };
  return { groups, sendTogether };
}

describe('a finding comparing answers, judged by the versions: each alone, then all by one version', () => {
  it('answers one version gives, however they differ, are dropped without a request', async () => {
    const target = together(() => []);
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf(), sendTogether: target.sendTogether };
    const found = comparedByVersions(context, [answer('page=1&pageSize=2', [7, 8]), answer('page=1&pageSize=6', [8])]);
    expect(await found.rejudge!()).toBe(false);
    expect(target.groups).toEqual([]);
  });

  it('answers each given by the version its own count names (records only arriving) are dropped without a request; a count naming another version is not enough', async () => {
    /** An answer sending `count` in X-Total-Count (the tail of every version is 100). */
    const counted = (query: string, tops: readonly number[], count: number) => {
      const sent = answer(query, tops);
      return { ...sent, response: { ...sent.response!, headers: { 'x-total-count': String(count) } } } as Exchange;
    };
    // Asked again, each request keeps to its version (the group's counts are not read): never one version.
    const target = together((query) => (query.includes('pageSize=2') ? [109] : [130]));
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf([], 100), sendTogether: target.sendTogether };
    // Read seconds apart on a target answering one at a time: versions 109 and 130, each the one its count names.
    const apart = [counted('page=1&pageSize=2', [109], 9), counted('page=1&pageSize=6', [130], 30)];
    expect(await comparedByVersions(context, apart).rejudge!()).toBe(false);
    expect(target.groups).toEqual([]);
    // Version 130's records sent with the count of 131: not the version its count names, so asked again.
    const off = [counted('page=1&pageSize=2', [109], 9), counted('page=1&pageSize=6', [130], 31)];
    expect(await comparedByVersions(context, off).rejudge!()).toMatchObject({ named: expect.stringContaining('no one version') });
    expect(target.groups).toHaveLength(3);
  });

  it('an answer no version gives stands on its own, naming why', async () => {
    const target = together(() => []);
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf(), sendTogether: target.sendTogether };
    const found = comparedByVersions(context, [answer('page=1&pageSize=2', [7]), answer('page=1&pageSize=6', [])]);
    expect(await found.rejudge!()).toEqual({ named: 'an answer it compares is given by no version (none)' });
  });

  it('answers of versions apart are asked again together, each twice in a row, until one version gives an answer to each', async () => {
    // Replicas in turn: requests of a group reach the one ahead (version 9) and the one behind (8) by turns.
    const target = together((_, at) => (at % 2 === 0 ? [9] : [8]));
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf(), sendTogether: target.sendTogether };
    const found = comparedByVersions(context, [answer('page=1&pageSize=2', [9]), answer('page=2&pageSize=2', [8])]);
    expect(await found.rejudge!()).toBe(false);
    // Each request twice in a row reaches both replicas; a read of the head ends the group.
    expect(target.groups).toEqual([
      ['page=1&pageSize=2', 'page=1&pageSize=2', 'page=2&pageSize=2', 'page=2&pageSize=2', 'page=1&pageSize=100'],
    ]);
  });

  it('answers never one version, asked again 3 times, stand, naming the versions that gave each', async () => {
    // A balancer routing each page to a replica of its own, a record apart: page 1 always 9, page 2 always 8.
    const target = together((query) => (query.startsWith('page=1&') ? [9] : [8]));
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf(), sendTogether: target.sendTogether };
    const found = comparedByVersions(context, [answer('page=1&pageSize=2', [9]), answer('page=2&pageSize=2', [8])]);
    expect(await found.rejudge!()).toEqual({
      named:
        'no one version of the listing gives the answers it compares (answer 1 by version 9; answer 2 by version 8), nor did one when they were asked again together 3 times',
    });
    expect(target.groups).toHaveLength(3);
    // Each round starts one place further on: a pool handing out its connections in the same order gives each
    // request other connections.
    expect(target.groups[1]).toEqual([
      'page=1&pageSize=2',
      'page=2&pageSize=2',
      'page=2&pageSize=2',
      'page=1&pageSize=2',
      'page=1&pageSize=100',
    ]);
  });

  it('answers never one version while one request asked twice at once got two versions in every round are untold, not a finding: data too quick for one version', async () => {
    // A new version with every request: even one request asked twice at once is answered from two.
    let version = 20;
    const target = together(() => [version++]);
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf(), sendTogether: target.sendTogether };
    const found = comparedByVersions(context, [answer('page=1&pageSize=2', [9]), answer('page=2&pageSize=2', [8])]);
    expect(await found.rejudge!()).toEqual({
      unknown: 'the listing moved on while the answers it compares were asked again together, each of 3 times',
    });
  });

  it('an answer newer than any read of the head each time its request is asked stands, naming it', async () => {
    const first = answer('page=1&pageSize=2', [9]);
    // Every asking of page 1 is newer than the reads of the head (no copy of it is explained).
    const target = together((query) => (query.startsWith('page=1&') ? [] : [8]));
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf([first]), sendTogether: target.sendTogether };
    const judged = await comparedByVersions(context, [first, answer('page=2&pageSize=2', [8])]).rejudge!();
    expect(judged).toEqual({
      named:
        'no one version of the listing gives the answers it compares (answer 1 by a version newer than any read of the head showed, each time it was asked; answer 2 by version 8), nor did one when they were asked again together 3 times',
    });
  });

  it('an answer newer than any read of the head whose request a version explains when asked again stays untold', async () => {
    // A replica behind answers page 1 as version 8: that says nothing of the answer compared, which showed newer.
    const first = answer('page=1&pageSize=2', [9]);
    const target = together(() => [8]);
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf([first]), sendTogether: target.sendTogether };
    expect(await comparedByVersions(context, [first, answer('page=2&pageSize=2', [8])]).rejudge!()).toEqual({ unknown: 'newer' });
  });

  it('eachAlone stops at each answer alone: answers of versions apart pass, and so does one newer stay untold', async () => {
    const target = together(() => []);
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf(), sendTogether: target.sendTogether };
    const [one, two] = [answer('page=1&pageSize=20', [9]), answer('page=1&pageSize=20&search=', [8])];
    expect(await comparedByVersions(context, [one, two], { eachAlone: true }).rejudge!()).toBe(false);
    context.versions = versionsOf([one]);
    expect(await comparedByVersions(context, [one, two], { eachAlone: true }).rejudge!()).toEqual({ unknown: 'newer' });
    expect(target.groups).toEqual([]);
  });

  it('a claim over time passes on one connection when its versions never go back; back in time, on connections apart or overlapping, it is asked again', async () => {
    /** The same request, answered on `connection` between `sent` and `answered` by the versions `tops`. */
    const on = (connection: number, sent: number, answered: number, tops: readonly number[]) => {
      const got = answer('page=1&pageSize=10', tops);
      return { ...got, response: { ...got.response!, connection }, span: { sent, answered } } as Exchange;
    };
    // Asked again, every answer is a new version: never one version, so a comparison held to one goes on 3 rounds.
    let version = 20;
    const target = together(() => [version++]);
    const context = { operation: LISTINGS[0]!, parameters, versions: versionsOf(), sendTogether: target.sendTogether };
    const judged = (compared: readonly Exchange[]) => comparedByVersions(context, compared, { overTime: true }).rejudge!();
    // Records arrived between the two, read one after the other on one connection: version 9, then 10 (or 9 or 10).
    expect(await judged([on(1, 0, 5, [9]), on(1, 6, 9, [10])])).toBe(false);
    expect(await judged([on(1, 0, 5, [9, 10]), on(1, 6, 9, [9])])).toBe(false);
    expect(target.groups).toEqual([]);
    // Back in time on one connection (a replica behind after one ahead), on two connections, or the second asked
    // before the first was answered: held to one version, asked again.
    for (const compared of [
      [on(1, 0, 5, [10]), on(1, 6, 9, [9])],
      [on(1, 0, 5, [9]), on(2, 6, 9, [10])],
      [on(1, 0, 5, [9]), on(1, 4, 9, [10])],
    ]) {
      target.groups.length = 0;
      expect(await judged(compared)).toEqual({ unknown: expect.stringContaining('moved on') });
      expect(target.groups).toHaveLength(3);
    }
    // Without the option (answers compared at one moment: pages that tile), forward in time is not enough.
    target.groups.length = 0;
    expect(await comparedByVersions(context, [on(1, 0, 5, [9]), on(1, 6, 9, [10])]).rejudge!()).not.toBe(false);
    expect(target.groups).toHaveLength(3);
  });
});
