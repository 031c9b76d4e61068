import { describe, expect, it } from 'vitest';
import { createHistory } from '../../../src/contract/versions/history.ts';
import { createLineage } from '../../../src/contract/versions/lineage.ts';
import { explain } from '../../../src/contract/versions/rule.ts';
import { containsTerm } from '../../../src/contract/material/search-term.ts';
import { createListingVersions } from '../../../src/contract/versions/listing-versions.ts';
import type { Exchange } from '../../../src/contract/types.ts';

/** Records r1..rN, newest first as a listing comes: `rN` is the newest. */
const records = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ id: `r${from + n - 1 - i}`, name: `name ${from + n - 1 - i}` }));
const span = (sent: number, answered = sent + 1) => ({ sent, answered });

describe('a lineage: every version a window of the records in the order they arrived', () => {
  it('a read of the head with new records at its top extends it; an older head locates below', () => {
    const lineage = createLineage(records(10), true, containsTerm);
    expect(lineage.head(records(5, 8))).toBe(12); // r12..r8: two arrived
    expect(lineage.ids.at(-1)).toBe('r12');
    expect(lineage.head(records(5, 6))).toBe(10); // r10..r6: the head as first read
    expect(lineage.slice({ top: 12, tail: 0 }, 10, 5)).toEqual(['r2', 'r1']);
    expect(lineage.slice({ top: 11, tail: 0 }, 0, 3)).toEqual(['r11', 'r10', 'r9']);
  });

  it('an answer that is no window of it (records out of order, records that share none) is refused', () => {
    const lineage = createLineage(records(10), true, containsTerm);
    expect(lineage.head([{ id: 'r9' }, { id: 'r10' }])).toBeUndefined();
    expect(lineage.head([{ id: 'r10' }, { id: 'r8' }, { id: 'r9' }])).toBeUndefined();
    expect(lineage.edited('r9', '')).toBe(false); // skipped by a read refused whole: not gone
    expect(lineage.head([{ id: 'x1' }, { id: 'r3' }])).toBeUndefined();
    expect(lineage.locate(['r5', 'r4', 'r3'], 4)).toBe(9);
    expect(lineage.locate(['r5', 'r3'], 4)).toBeUndefined();
  });

  it('a record missing in the middle of a read of the head left the listing: versions may hold it or not', () => {
    const lineage = createLineage(records(10), true, containsTerm);
    expect(lineage.head([{ id: 'r10' }, { id: 'r8' }, { id: 'r7' }])).toBe(10); // r9 resolved and gone
    expect(lineage.edited('r9', '')).toBe(true);
    expect(lineage.edited('r8', '')).toBe(false);
    const history = createHistory(containsTerm);
    history.base(records(10), true, span(0, 10), 10);
    history.sighting([{ id: 'r12' }, { id: 'r11' }, { id: 'r10' }, { id: 'r8' }], span(100), { count: 11 }); // r11, r12 arrived; r9 left
    const page = (ids: string[], offset: number) =>
      explain(history, { claim: { term: '', page: { offset, size: 3 } }, shown: { ids }, span: span(200), kind: 'page', maxStaleMs: 0 })
        .kind;
    expect(page(['r10', 'r8', 'r7'], 2)).toBe('explained'); // without r9: the page starts a place lower
    expect(page(['r10', 'r9', 'r8'], 2)).toBe('explained'); // with it, as before it left
    expect(page(['r10', 'r7', 'r6'], 2)).toBe('unexplained'); // r8 never left
    const count = (n: number) =>
      explain(history, { claim: { term: '', count: true }, shown: { count: n }, span: span(200), kind: 'page', maxStaleMs: 0 }).kind;
    expect([count(11), count(12), count(9)]).toEqual(['explained', 'explained', 'unexplained']);
  });

  it('a full read of the head of records none known (the listing replaced whole) leaves the rule unable to tell until a read places the head again', () => {
    const history = createHistory(containsTerm);
    history.base(records(10), true, span(0, 10), 10);
    const page = (ids: string[], at: number) =>
      explain(history, { claim: { term: '', page: { offset: 0, size: 3 } }, shown: { ids }, span: span(at), kind: 'page', maxStaleMs: 0 });
    history.sighting(records(3, 8), span(60), { full: true });
    // x3..x1: another dataset, or more arrived than a page holds; a page of it is not called a violation, from when
    // the last read that fitted was sent: the change may have come any time after it.
    history.sighting([{ id: 'x3' }, { id: 'x2' }, { id: 'x1' }], span(100), { full: true });
    expect(page(['x3', 'x2', 'x1'], 200)).toMatchObject({ kind: 'unknown', why: expect.stringMatching(/could not place/) });
    expect(page(['x3', 'x2', 'x1'], 70).kind).toBe('unknown');
    // Answered before the last read that fitted: judged as ever.
    expect(page(['r9', 'r8', 'r7'], 50).kind).toBe('unexplained');
    // A later read of the head the lineage places (r10 again): the rule tells again.
    history.sighting(records(3, 8), span(300), { full: true });
    expect(page(['r9', 'r8', 'r7'], 400).kind).toBe('unexplained');
    expect(page(['r10', 'r9', 'r8'], 400).kind).toBe('explained');
    // What was made while the head could not be placed stays untold: the versions of that time were never all read.
    expect(page(['x3', 'x2', 'x1'], 200)).toMatchObject({ kind: 'unknown', why: expect.stringMatching(/could not place/) });
    expect(page(['r10', 'r9', 'r8'], 200).kind).toBe('explained');
  });

  it('a small read of the head showing only records that arrived since is no break: they are placed once a longer read shows them', () => {
    const lineage = createLineage(records(10), true, containsTerm);
    expect(lineage.head(records(1, 13), true)).toBe('ahead'); // r13 alone on a page of 1: r11 and r12 may stand between
    // The same alone on a page with room for more: the listing ended there, so r1..r10 are gone.
    expect(lineage.head(records(1, 13), false)).toBeUndefined();
    expect(lineage.ids.at(-1)).toBe('r10');
    expect(lineage.head(records(4, 10))).toBe(13); // r13..r10
    expect(lineage.ids.slice(-3)).toEqual(['r11', 'r12', 'r13']);
    const history = createHistory(containsTerm);
    history.base(records(10), true, span(0));
    expect(history.sighting(records(1, 12), span(10), { full: true })).toBe('ahead');
    expect(history.brokenSince()).toBeUndefined();
  });

  it('a read in pages torn across versions (a record skipped at a page seam) is mended by a later read across the seam, and nowhere else', () => {
    // Read in pages of 5 from versions apart: page 2 came from a version with one more record, so r5 was skipped.
    const torn = [...records(5, 6), ...records(4, 1)];
    const inserted: [number, number][] = [];
    const lineage = createLineage(torn, true, containsTerm, { seams: new Set(['r4']), inserted: (at, n) => inserted.push([at, n]) });
    expect(lineage.head(records(8, 1))).toBe(8); // r8..r1, an older version: r5 shows above the seam
    expect(inserted).toEqual([[4, 1]]);
    expect(lineage.slice({ top: 10, tail: 0 }, 4, 3)).toEqual(['r6', 'r5', 'r4']);
    expect(lineage.count({ top: 10, tail: 0 }, '')).toBe(10);
    // A record the lineage lacks anywhere else is no tear: the answer is no window of it.
    const whole = createLineage([...records(5, 6), ...records(4, 1)], true, containsTerm, { seams: new Set(['r4']) });
    expect(whole.head([...records(2, 9), { id: 'x1' }, ...records(3, 6)])).toBeUndefined();
  });

  it('counts name versions while every read that sent one shows one tail and no record left from the middle', () => {
    const growing = createHistory(containsTerm);
    growing.base(records(10), true, span(0, 10), 10);
    growing.sighting(records(3, 10), span(50), { count: 12 }); // r12..r10: two arrived, the tail still 0
    expect(growing.fixedTail()).toBe(0);
    // A window: r13 arrived and r1 left, the count the same; the tail moved, and a count names no one version.
    growing.sighting(records(3, 11), span(100), { count: 12 });
    expect(growing.fixedTail()).toBeUndefined();
    const resolved = createHistory(containsTerm);
    resolved.base(records(10), true, span(0, 10), 10);
    resolved.sighting([{ id: 'r11' }, { id: 'r10' }, { id: 'r8' }], span(50), { count: 10 }); // r11 arrived, r9 left
    expect(resolved.fixedTail()).toBeUndefined();
  });

  it('a history mended at a seam moves the versions it saw above it', () => {
    const history = createHistory(containsTerm);
    history.base([...records(5, 6), ...records(4, 1)], true, span(0, 10), 9, new Set(['r4']));
    // The target's count (10) was right where the lineage lacked r5: a tail below the oldest record, until mended.
    history.sighting(records(3, 8), span(50), { count: 10 });
    expect(history.sightings[1]).toMatchObject({ top: 9, tail: -1 });
    history.sighting(records(8, 3), span(100), { count: 10 }); // r10..r3: r5 put in
    expect(history.sightings.map((s) => [s.top, s.tail])).toEqual([
      [10, 0],
      [10, 0],
      [10, 0],
    ]);
    expect(history.brokenSince()).toBeUndefined();
  });

  it('a plain page from anywhere in the listing mends a seam it shows, and breaks nothing when it fits nowhere', () => {
    const inserted: number[] = [];
    const lineage = createLineage([...records(5, 6), ...records(4, 1)], true, containsTerm, {
      seams: new Set(['r4']),
      inserted: (at) => inserted.push(at),
    });
    lineage.mend([...records(2, 5), { id: 'x9' }]); // r6, then r5 and x9 unknown to the end: nothing below them shows where they stand
    lineage.mend(records(3, 3)); // r5, r4, r3: r5 put in above the seam
    expect(inserted).toEqual([4]);
    expect(lineage.slice({ top: 10, tail: 0 }, 0, 10)).toEqual(records(10).map((r) => r.id));
    lineage.mend([{ id: 'x1' }, ...records(2, 7)]); // a stranger above r8, no seam: left out
    expect(lineage.ids).toHaveLength(10);
  });

  it("an answer's records tell edits deep in the listing: a known record read with other content was edited, an unknown one is not taken in", () => {
    const lineage = createLineage(records(10), true, containsTerm);
    lineage.observe([{ id: 'r3', name: 'name 3' }]);
    expect(lineage.edited('r3')).toBe(false);
    lineage.observe([
      { id: 'r3', name: 'name 3 (updated)' },
      { id: 'x1', name: 'stranger' },
    ]);
    expect(lineage.edited('r3')).toBe(true);
    expect(lineage.editedIn({ top: 10, tail: 0 })).toBe(1);
    expect(lineage.position('x1')).toBeUndefined();
  });

  it('what a term finds in a version, and its count; past what was read, nothing is told', () => {
    const lineage = createLineage(records(30), true, containsTerm);
    // "name 1" is in r1, r10..r19 and r30.
    expect(lineage.matches({ top: 30, tail: 0 }, 'name 1', 0, 3)).toEqual(['r19', 'r18', 'r17']);
    expect(lineage.count({ top: 30, tail: 0 }, 'name 1')).toBe(11);
    expect(lineage.count({ top: 30, tail: 5 }, 'name 1')).toBe(10);
    const prefix = createLineage(records(30), false, containsTerm);
    expect(prefix.slice({ top: 30, tail: -100 }, 25, 10)).toBeUndefined();
  });
});

describe('the rule: an answer passes when a version admissible for its time explains it', () => {
  /** A history read whole at t 0..10 (r1..r10), then heads: r11 arrived by t 100. */
  const moving = () => {
    const history = createHistory(containsTerm);
    history.base(records(10), true, span(0, 10), 10);
    history.sighting(records(5, 7), span(100), { count: 11 });
    return history;
  };

  it('a count for a term that a record edited during the run held: explained either way, by one edited record at most', () => {
    const history = createHistory(containsTerm);
    history.base(records(10), true, span(0, 10), 10);
    // r9 renamed in place: "name 9" found it before, finds nothing now.
    history.sighting([{ id: 'r10', name: 'name 10' }, { id: 'r9', name: 'renamed' }, ...records(8)], span(100), { count: 10 });
    const count = (n: number) =>
      explain(history, { claim: { term: 'name 9', count: true }, shown: { count: n }, span: span(200), kind: 'search', maxStaleMs: 10_000 })
        .kind;
    expect(count(0)).toBe('explained');
    expect(count(1)).toBe('explained');
    expect(count(2)).not.toBe('explained');
  });

  it('an edit no answer showed: a count for a term found in a field seen to change elsewhere may be any up to the version; a term found in fields never seen to change is counted exactly', () => {
    const stamped = (n: number, from = 1, at = 'T1') => records(n, from).map((r) => ({ ...r, at: `${at}-${r.id}` }));
    const history = createHistory(containsTerm);
    history.base(stamped(10), true, span(0, 10), 10);
    // r10's `at` moved in place: `at` is a field edits change, in any record.
    history.sighting([{ ...stamped(1, 10)[0]!, at: 'T2-r10' }, ...stamped(9)], span(100), { count: 10 });
    const judge = (term: string, shown: { ids?: string[]; count?: number }, claim: object) =>
      explain(history, { claim: { term, ...claim }, shown, span: span(200), kind: 'search', maxStaleMs: 10_000 }).kind;
    // "T1-r3" is found only in r3's `at`, which an edit no answer showed may have moved: counted or not.
    expect(judge('T1-r3', { count: 0 }, { count: true })).toBe('explained');
    expect(judge('T1-r3', { count: 1 }, { count: true })).toBe('explained');
    // "T1" is in `at` values: any record may have gained it, or lost it.
    expect(judge('T1', { count: 10 }, { count: true })).toBe('explained');
    expect(judge('T1', { count: 3 }, { count: true })).toBe('explained');
    expect(judge('T1', { count: 11 }, { count: true })).not.toBe('explained');
    // "name 3" is found in `name`, never seen to change: counted within the one record seen edited.
    expect(judge('name 3', { ids: ['r4'] }, { page: { offset: 0, size: 5 } })).not.toBe('explained');
    expect(judge('name 3', { count: 3 }, { count: true })).not.toBe('explained');
    expect(judge('name 3', { count: 1 }, { count: true })).toBe('explained');
  });

  it('a search page over a record edited during the run: explained with it or without it', () => {
    const history = createHistory(containsTerm);
    history.base(records(10), true, span(0, 10), 10);
    // r9 renamed in place: "name" found it before (page 2 of size 2 was r8, r7), finds r7, r6 there now.
    history.sighting([{ id: 'r10', name: 'name 10' }, { id: 'r9', name: 'renamed' }, ...records(8)], span(100), { count: 10 });
    const page = (ids: string[]) =>
      explain(history, {
        claim: { term: 'name', page: { offset: 2, size: 2 } },
        shown: { ids },
        span: span(200),
        kind: 'search',
        maxStaleMs: 10_000,
      }).kind;
    expect(page(['r8', 'r7'])).toBe('explained');
    expect(page(['r7', 'r6'])).toBe('explained');
  });

  it('a search page whose term is found only in a field seen to change: a record missing may have been edited unseen, a record the term does not find still fails', () => {
    const history = createHistory(containsTerm);
    const base = [{ id: 'q1', name: 'quiet', tag: 'x' }, ...records(10).map((r) => ({ ...r, tag: 'x' }))];
    history.base(base, true, span(0, 10), 11);
    // r10's name changed in place: `name` is a field edits change, in any record.
    history.sighting([base[0]!, { id: 'r10', name: 'renamed', tag: 'x' }, ...base.slice(2, 10)], span(100), { count: 11 });
    const page = (term: string, ids: string[]) =>
      explain(history, {
        claim: { term, page: { offset: 0, size: 3 } },
        shown: { ids },
        span: span(200),
        kind: 'search',
        maxStaleMs: 10_000,
      }).kind;
    // "name" is found in `name` only: any of r1..r9 may have been renamed since it was read.
    expect(page('name', ['r9', 'r8', 'r7'])).toBe('explained');
    expect(page('name', ['r9', 'r7', 'r6'])).toBe('explained');
    // q1 holds no "name": no edit explains it.
    expect(page('name', ['r9', 'q1'])).not.toBe('explained');
    // "x" is found in `tag`, never seen to change: r8 may not be missing.
    expect(page('x', ['r9', 'r7', 'r6'])).not.toBe('explained');
  });

  it('a page of the version current while it was made is explained; one a record off is not, and says which version was closest', () => {
    const history = moving();
    const page2 = { term: '', page: { offset: 2, size: 2 } };
    expect(explain(history, { claim: page2, shown: { ids: ['r9', 'r8'] }, span: span(200), kind: 'page', maxStaleMs: 10_000 }).kind).toBe(
      'explained',
    );
    const off = explain(history, { claim: page2, shown: { ids: ['r8', 'r7'] }, span: span(200), kind: 'page', maxStaleMs: 10_000 });
    // r8, r7 is page 2 of the version before r11 arrived, which a read answered 99 ms before this was sent had left behind.
    expect(off).toMatchObject({ kind: 'stale', version: { top: 10 }, needMs: 99 });
    // r10, r9 (page 2 starting a record early) is where a version newer than any seen would put them.
    expect(explain(history, { claim: page2, shown: { ids: ['r10', 'r9'] }, span: span(200), kind: 'page', maxStaleMs: 10_000 }).kind).toBe(
      'newer',
    );
    expect(
      explain(history, { claim: page2, shown: { ids: ['r7', 'r9'] }, span: span(200), kind: 'page', maxStaleMs: 10_000 }),
    ).toMatchObject({
      kind: 'unexplained',
      expected: { ids: ['r9', 'r8'] },
    });
  });

  it("a listing read to its end has its tail at the oldest record read, whatever count a page of it sent (a replica behind's)", () => {
    // Read whole as r1..r10 while page 1 came from a replica a record behind, whose count was 9.
    const history = createHistory(containsTerm);
    history.base(records(10), true, span(0, 10), 9);
    expect(history.tails(10)).toEqual({ low: 0, high: 0 });
    // The last page of size 3 holds the oldest record: it is explained, not one record off.
    const last = { term: '', page: { offset: 9, size: 3 } };
    expect(explain(history, { claim: last, shown: { ids: ['r1'] }, span: span(20), kind: 'page', maxStaleMs: 10_000 }).kind).toBe(
      'explained',
    );
    // Read only so far (past --max-pages), the count still tells where the tail lies below what was read.
    const prefix = createHistory(containsTerm);
    prefix.base(records(10), false, span(0, 10), 25);
    expect(prefix.tails(10).low).toBe(-15);
  });

  it('an answer made while a record arrived may come from either version', () => {
    const history = moving();
    // Sent before the head showing r11 was answered: the version without it is admissible.
    expect(
      explain(history, {
        claim: { term: '', page: { offset: 0, size: 2 } },
        shown: { ids: ['r10', 'r9'] },
        span: span(50, 150),
        kind: 'page',
        maxStaleMs: 10_000,
      }).kind,
    ).toBe('explained');
  });

  it('replicas a record apart: a read of the head showing the older version after the newer measures how far and how stale', () => {
    const history = moving();
    const claim = { term: '', page: { offset: 2, size: 2 } };
    expect(explain(history, { claim: claim, shown: { ids: ['r8', 'r7'] }, span: span(300), kind: 'page', maxStaleMs: 10_000 }).kind).toBe(
      'stale',
    );
    // A replica behind answers the head as it was before r11, 149 ms after the newer one was seen: measured.
    history.sighting(records(5, 6), span(250), { count: 10 });
    expect(history.staleness('page')).toBe(149);
    expect(history.behindVersions()).toBe(1);
    // A listing answering from several versions at once: a version as far behind the current one as a replica was
    // seen is admissible, within --max-staleness; --max-staleness 0 asks for one version at a time.
    expect(explain(history, { claim, shown: { ids: ['r8', 'r7'] }, span: span(900), kind: 'page', maxStaleMs: 10_000 }).kind).toBe(
      'explained',
    );
    expect(explain(history, { claim, shown: { ids: ['r8', 'r7'] }, span: span(900), kind: 'page', maxStaleMs: 0 }).kind).toBe(
      'unexplained',
    );
    // Two versions behind is more than a replica was seen to be.
    expect(explain(history, { claim, shown: { ids: ['r7', 'r6'] }, span: span(900), kind: 'page', maxStaleMs: 10_000 }).kind).not.toBe(
      'explained',
    );
  });

  it('a full first page of records that arrived after every read of the head is newer, not a finding; a short one is a finding', () => {
    const history = moving();
    const page = (ids: string[], size: number) =>
      explain(history, {
        claim: { term: '', page: { offset: 0, size } },
        shown: { ids },
        span: span(200),
        kind: 'page',
        maxStaleMs: 10_000,
      }).kind;
    expect(page(['r13'], 1)).toBe('newer');
    expect(page(['r13', 'r12', 'r11'], 3)).toBe('newer');
    expect(page(['r13'], 3)).toBe('unexplained');
  });

  it('replicas apart: a read sent after an answer may come from one behind the replica that answered', () => {
    const history = moving(); // r11 seen by t 101
    history.sighting(records(5, 6), span(150), { count: 10 }); // a replica a version behind: r10 at the top
    history.sighting(records(5, 8), span(160), { count: 12 });
    // An answer made at t 120..121: r11 had been seen, the next read showed r10 (the replica behind).
    expect(history.admissible(span(120, 121), 0, 0)).toEqual({ low: 11, high: 10 });
    expect(history.admissible(span(120, 121), 0, history.behindVersions())).toEqual({ low: 10, high: 11 });
  });

  it('a search behind its records is explained once the search was seen to catch up, not before', () => {
    const history = moving();
    // "name 11" is r11 only, which arrived by t 100.
    const claim = { term: 'name 11', page: { offset: 0, size: 10 } };
    expect(explain(history, { claim: claim, shown: { ids: [] }, span: span(400), kind: 'search', maxStaleMs: 10_000 })).toMatchObject({
      kind: 'stale',
      needMs: 299,
    });
    history.noteSearchLag(299);
    expect(explain(history, { claim: claim, shown: { ids: [] }, span: span(400), kind: 'search', maxStaleMs: 10_000 }).kind).toBe(
      'explained',
    );
    expect(explain(history, { claim: claim, shown: { ids: ['r11'] }, span: span(400), kind: 'search', maxStaleMs: 10_000 }).kind).toBe(
      'explained',
    );
  });

  it("a count known only to a page (what Link's last page implies) is explained when an admissible version's count lies in it", () => {
    const history = moving(); // 10 records, then 11 by t 101
    const judge = (low: number, high: number, at: number) =>
      explain(history, {
        claim: { term: '', count: true },
        shown: { countWithin: { low, high } },
        span: span(at),
        kind: 'page',
        maxStaleMs: 0,
      }).kind;
    expect(judge(10, 12, 200)).toBe('explained'); // last page 4 of size 3: 10..12 records
    expect(judge(13, 15, 200)).toBe('unexplained'); // one page too far
    expect(judge(7, 9, 200)).toBe('unexplained'); // one page short of the 11 records seen before it was sent
    expect(judge(7, 10, 50)).toBe('explained'); // sent before the 11th was seen
  });

  it("an index's lag runs from when a read of the head first showed the record to the refresh, taken at its middle", () => {
    const history = moving(); // r10 the head at t 0..10; r11 first seen by t 101
    history.sighting(records(5, 6), span(60, 61), { count: 10 }); // still r10 at t 60
    // The search sent at 400 still missed r11; the one sent at 800 found it by 801: refreshed in 400..801.
    expect(history.agedBy(10, (400 + 801) / 2)).toBeCloseTo((400 + 801) / 2 - 101);
    expect(history.agedBy(5, (400 + 801) / 2)).toBeCloseTo((400 + 801) / 2 - 10); // r6 was in the listing as first read, by t 10
    expect(history.agedBy(12, (400 + 801) / 2)).toBe(0); // no version past r12 seen: nothing to measure
  });

  it("an answer for another term is explained by no version: the closest one's records are named", () => {
    const history = moving();
    const verdict = explain(history, {
      claim: { term: 'name 3', page: { offset: 0, size: 10 } },
      shown: { ids: ['r4'] },
      span: span(200),
      kind: 'search',
      maxStaleMs: 10_000,
    });
    expect(verdict).toMatchObject({ kind: 'unexplained', expected: { ids: ['r3'] } });
  });

  it('a count: the records of an admissible version; one off is not', () => {
    const history = moving();
    const claim = { term: '', count: true };
    expect(explain(history, { claim: claim, shown: { count: 11 }, span: span(200), kind: 'page', maxStaleMs: 10_000 }).kind).toBe(
      'explained',
    );
    expect(explain(history, { claim: claim, shown: { count: 12 }, span: span(200), kind: 'page', maxStaleMs: 10_000 }).kind).not.toBe(
      'explained',
    );
  });
});

describe("a listing's versions: the rule with the reads it makes", () => {
  /** An answer of `records` to a plain page, made within `at`. */
  const answer = (shown: readonly Record<string, unknown>[], at: { sent: number; answered: number }) =>
    ({
      request: { method: 'GET', url: 'http://t/alert', headers: {} },
      response: { status: 200, headers: {}, json: shown },
      span: at,
    }) as unknown as Exchange;

  /** An answer of `shown` records sending `count` in X-Total-Count. */
  const countedAnswer = (shown: readonly Record<string, unknown>[], at: { sent: number; answered: number }, count: number) =>
    ({ ...answer(shown, at), response: { status: 200, headers: { 'x-total-count': String(count) }, json: shown } }) as unknown as Exchange;

  it('replicas seen apart: a count from the replica ahead is judged again after up to four reads of the head, each of which may come from the one behind', async () => {
    const headReads: number[] = [];
    const versions = createListingVersions(
      {
        // Three reads land on the replica behind (11 records), the fourth on the one ahead (12).
        readHead: async () => {
          headReads.push(headReads.length);
          const top = headReads.length < 4 ? 11 : 12;
          versions.sighting(answer(records(top).slice(0, 5), span(300 + headReads.length * 10)), 5);
        },
        countHeader: 'x-total-count',
        matches: containsTerm,
      },
      10_000,
    );
    versions.history.base(records(10), true, span(0, 10));
    versions.sighting(answer(records(11).slice(0, 5), span(50)), 5);
    versions.sighting(answer(records(10).slice(0, 5), span(100)), 5);
    expect(versions.history.behindVersions()).toBe(1);
    const counted = {
      ...answer([], span(200)),
      response: { status: 200, headers: { 'x-total-count': '12' }, json: [] },
    } as unknown as Exchange;
    expect(await versions.judge(counted, { term: '', count: true })).toEqual({ kind: 'explained' });
    expect(headReads).toHaveLength(4);
  });

  it('a search answered as an older version before any read of the head after it: the head is read, and the version current then explains it', async () => {
    // A window of 10 sliding by one record a version: the records holding "hit" go 1, 0, 1 as r11 and r12 arrive.
    const tagged = (n: number) => records(n).map((r) => ({ ...r, tag: ['r1', 'r12'].includes(r.id) ? 'hit' : 'miss' }));
    let reads = 0;
    const versions = createListingVersions(
      {
        readHead: async () => {
          reads += 1;
          versions.sighting(countedAnswer(tagged(12).slice(0, 5), span(300), 10), 5);
        },
        countHeader: 'x-total-count',
        matches: containsTerm,
      },
      10_000,
    );
    versions.history.base(tagged(10), true, span(0, 10));
    versions.sighting(countedAnswer(tagged(11).slice(0, 5), span(50), 10), 5);
    // Sent after the version of r11 was seen, it counts 1: so did the version before it, and so does the one of r12.
    const search = countedAnswer([], span(200), 1);
    expect(await versions.judge(search, { term: 'hit', count: true })).toEqual({ kind: 'explained' });
    expect(reads).toBe(1);
  });

  it('a read of the head showing only records that arrived since (more than a page of them): the pages below it are read to a record known, and it is placed', async () => {
    const pages: number[] = [];
    const versions = createListingVersions(
      {
        readHead: async () => undefined,
        // A record arrives before each page below is read: each repeats the last records shown of the page above.
        below: {
          size: 5,
          read: async (page) => {
            pages.push(page);
            const now = 30 + page;
            return countedAnswer(records(now).slice((page - 1) * 5, page * 5), span(200 + page), now);
          },
        },
        countHeader: 'x-total-count',
        matches: containsTerm,
      },
      10_000,
    );
    versions.history.base(records(10), true, span(0, 10));
    versions.sighting(countedAnswer(records(30).slice(0, 5), span(100), 30), 5);
    // r30..r26, none known: it waits for the pages below, then a page of that version is explained by it.
    const page = { term: '', page: { offset: 5, size: 5 } };
    expect(await versions.judge(countedAnswer(records(30).slice(5, 10), span(120), 30), page)).toEqual({ kind: 'explained' });
    expect(pages).toEqual([2, 3, 4, 5, 6]);
    expect(versions.history.seen()).toEqual({ oldest: 10, newest: 30 });
    expect(versions.history.lineage()!.ids.slice(-21)).toEqual(
      records(21, 10)
        .map((r) => r.id)
        .reverse(),
    );
  });

  it('pages below such a read that tell nothing (no count, none of the records shown above) place nothing', async () => {
    const versions = createListingVersions(
      {
        readHead: async () => undefined,
        // Page 2 holds records shown neither above nor known: arrivals that pushed the head past it, or the records
        // just below the head. Page 3 holds records known, but where they meet the head is not known.
        below: { size: 5, read: async (page) => answer(page === 2 ? records(5, 100) : records(5, 5), span(200 + page)) },
        countHeader: 'x-total-count',
        matches: containsTerm,
      },
      10_000,
    );
    versions.history.base(records(10), true, span(0, 10));
    versions.sighting(answer(records(30).slice(0, 5), span(100)), 5);
    await versions.judge(answer(records(30).slice(5, 10), span(120)), { term: '', page: { offset: 5, size: 5 } });
    expect(versions.history.seen()!.newest).toBe(10);
    expect(versions.history.brokenSince()).toBeUndefined();
  });

  it('a search asked again while it shows an older version is judged against a read of the head after it, not only the versions seen before', async () => {
    // A window of 10: the records holding "hit" go 1 (r1), 0, 1 (r12) as r11 and r12 arrive.
    const tagged = (n: number) => records(n).map((r) => ({ ...r, tag: ['r1', 'r12'].includes(r.id) ? 'hit' : 'miss' }));
    const heads = [11, 12];
    let at = 300;
    const versions = createListingVersions(
      {
        readHead: async () => {
          const top = heads.shift() ?? 12;
          versions.sighting(countedAnswer(tagged(top).slice(0, 5), span(at), 10), 5);
          at += 200;
        },
        countHeader: 'x-total-count',
        matches: containsTerm,
      },
      10_000,
    );
    versions.history.base(tagged(10), true, span(0, 10));
    versions.sighting(countedAnswer(tagged(11).slice(0, 5), span(100), 10), 5);
    // Counting 1 at 200, after the version of r11 (0) was seen and before r12 arrived: the version of r1, behind.
    // Asked again, it counts 1 as the version of r12 does, which only a read of the head after it shows.
    const again = async () => {
      at += 10;
      return countedAnswer([], span(at - 10), 1);
    };
    expect(await versions.judge(countedAnswer([], span(200), 1), { term: 'hit', count: true }, again)).toEqual({ kind: 'explained' });
    expect(heads).toEqual([]);
  });

  it('--max-staleness 0: a page of a version the run had left behind when it was sent is a finding naming both versions', async () => {
    const versions = createListingVersions({ readHead: async () => undefined, countHeader: undefined, matches: containsTerm }, 0);
    versions.history.base(records(10), true, span(0, 10));
    versions.sighting(answer(records(11).slice(0, 5), span(50)), 5);
    const page = { term: '', page: { offset: 0, size: 5 } };
    expect(await versions.judge(answer(records(10).slice(0, 5), span(200)), page)).toMatchObject({
      kind: 'unexplained',
      why: expect.stringMatching(
        /the closest, the listing of 11 records whose newest is r11, gives 5 records: r11, .*; the listing of 10 records whose newest is r10 gave it, left behind 149 ms before it was sent, more than --max-staleness 0 ms/,
      ),
    });
    // Made while r11 arrived (sent before the read that showed it), either version explains it.
    expect(await versions.judge(answer(records(10).slice(0, 5), span(40, 60)), page)).toEqual({ kind: 'explained' });
  });

  it('an answer showing records no read had shown, with no read of the head after it (its reads timed out): not known, not a finding; with one, judged', async () => {
    // The listing of 30 read, r31..r42 arrived since; page 10 of size 1 at 42 records is r33, a record no read showed.
    let headAfter: (() => void) | undefined;
    const versions = createListingVersions({ readHead: async () => headAfter?.(), countHeader: undefined, matches: containsTerm }, 10_000);
    versions.history.base(records(30), true, span(0, 10));
    versions.sighting(answer(records(30).slice(0, 5), span(50)), 5);
    const page10 = { term: '', page: { offset: 9, size: 1 } };
    const verdict = await versions.judge(answer([{ id: 'r33', name: 'name 33' }], span(200)), page10);
    expect(verdict).toMatchObject({ kind: 'unknown', why: expect.stringContaining('no read of its head after it answered') });
    // A read of the head after it answered shows the listing still at 30: no version gives r33 there.
    headAfter = () => versions.sighting(answer(records(30).slice(0, 5), span(300)), 5);
    expect((await versions.judge(answer([{ id: 'r33', name: 'name 33' }], span(200)), page10)).kind).toBe('unexplained');
    // And one showing the 42: the answer is that version's.
    headAfter = () => versions.sighting(answer(records(42).slice(0, 20), span(400)), 20);
    expect(await versions.judge(answer([{ id: 'r33', name: 'name 33' }], span(350)), page10)).toEqual({ kind: 'explained' });
  });

  it('names a listing longer than the run read by what it read, never as Infinity records', () => {
    const versions = createListingVersions({ readHead: async () => undefined, countHeader: undefined, matches: containsTerm }, 0);
    // Read incomplete (past --max-pages) and no count sent: nothing bounds the tail.
    versions.history.base(records(10), false, span(0, 10));
    expect(versions.describe({ top: 10, tail: versions.history.tails(10).low })).toBe('the listing of 10+ records whose newest is r10');
    expect(versions.describe({ top: 10, tail: -3 })).toBe('the listing of 13+ records whose newest is r10');
    expect(versions.describe({ top: 10, tail: 2 })).toBe('the listing of 8 records whose newest is r10');
  });

  it('an answer below a seam not yet mended waits for the read across it under way, then is explained', async () => {
    let reads = 0;
    const versions = createListingVersions({ readHead: async () => (reads += 1), countHeader: undefined, matches: containsTerm }, 10_000);
    // r10..r6 then r4..r1: the read in pages skipped r5 at the seam r4.
    versions.history.base([...records(5, 6), ...records(4, 1)], true, span(0, 10), undefined, new Set(['r4']));
    const page = { term: '', page: { offset: 6, size: 2 } };
    // Alone, r4 and r3 at offset 6 say a version of 10 records, newer than the 9 the lineage knows and than any read
    // of the head shows, and no read of the head after it placed one: not known (the run judges every finding again
    // once its reads across seams are done).
    expect((await versions.judge(answer(records(2, 3), span(20)), page)).kind).toBe('unknown');
    const across = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => versions.history.lineage()!.mend(records(3, 4)));
    versions.mending(across);
    expect(await versions.judge(answer(records(2, 3), span(30)), page)).toEqual({ kind: 'explained' });
    expect(versions.history.lineage()!.ids).toEqual(
      records(10)
        .map((r) => r.id)
        .reverse(),
    );
    // Nothing mends a page a record off: still no version gives it.
    expect((await versions.judge(answer(records(2, 2), span(40)), page)).kind).not.toBe('explained');
    expect(reads).toBeGreaterThan(0);
  });

  describe('records that left from the middle below every read of the head (alerts resolved deep in the listing)', () => {
    /** Versions of a listing of r1..r30 whose pages below are read from `served` (newest first), `size` at most. */
    const listing = (served: () => readonly Record<string, unknown>[]) => {
      const pages: string[] = [];
      const versions = createListingVersions(
        {
          readHead: async () => undefined,
          below: {
            size: 5,
            read: async (page, size = 5) => {
              pages.push(`${page}x${size}`);
              const all = served();
              return countedAnswer(all.slice((page - 1) * size, page * size), span(200 + pages.length), all.length);
            },
          },
          countHeader: 'x-total-count',
          matches: containsTerm,
        },
        10_000,
      );
      versions.history.base(records(30), true, span(0, 10));
      versions.sighting(countedAnswer(records(30).slice(0, 5), span(100), 30), 5);
      return { versions, pages };
    };
    const page = { term: '', page: { offset: 20, size: 5 } };

    it('a page below moved up by a record that left: the listing is read down to it, pages overlapping, and it is explained', async () => {
      const withoutR12 = records(30).filter((r) => r.id !== 'r12');
      const { versions, pages } = listing(() => withoutR12);
      // r9..r5 at offset 20: only a version one record older would give it, had r12 not left.
      expect(await versions.judge(countedAnswer(withoutR12.slice(20, 25), span(150), 29), page)).toEqual({ kind: 'explained' });
      expect(versions.history.lineage()!.gone()).toBe(1);
      // Down to r5, each page starting within the one above: 1x5 r30..r26, 2x4 r26..r23, 2x5 r25..r21, ...
      expect(pages.slice(0, 3)).toEqual(['1x5', '2x4', '2x5']);
    });

    it('a page one record off with every record in place is still a finding; so is one of a server whose later pages skip a record', async () => {
      const whole = records(30);
      const { versions } = listing(() => whole);
      const judged = await versions.judge(countedAnswer(whole.slice(21, 26), span(150), 30), page);
      expect(judged.kind).toBe('unexplained');
      expect(versions.history.lineage()!.gone()).toBe(0);
      // Pages after the first start a record late: a read down joins no page to the one above, and learns nothing.
      const late = (page: number, size: number) => whole.slice((page - 1) * size + 1, page * size + 1);
      const lateVersions = createListingVersions(
        {
          readHead: async () => undefined,
          below: { size: 5, read: async (p, size = 5) => countedAnswer(p === 1 ? whole.slice(0, 5) : late(p, size), span(300), 30) },
          countHeader: 'x-total-count',
          matches: containsTerm,
        },
        10_000,
      );
      lateVersions.history.base(whole, true, span(0, 10));
      expect((await lateVersions.judge(countedAnswer(late(5, 5), span(150), 30), page)).kind).toBe('unexplained');
      expect(lateVersions.history.lineage()!.gone()).toBe(0);
    });
  });
});
