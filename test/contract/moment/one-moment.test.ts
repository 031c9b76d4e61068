import { describe, expect, it } from 'vitest';
import { identities, recordsOf } from '../../../src/contract/records.ts';
import { pageQuery } from '../../../src/contract/model/listing-query.ts';
import { sendTogether } from '../../../src/contract/moment/at-once.ts';
import { atOneMoment } from '../../../src/contract/moment/one-moment.ts';
import type { OperationContext } from '../../../src/contract/model/context.ts';
import { alertsContext } from './alerts-context.ts';

/** A comparison's read: pages 1 and 2 of size 10 sent together, and whether page 2 starts where page 1 ends. */
const pagesMeet = (context: OperationContext) => async () => {
  const [one, two] = await sendTogether(context, [{ query: pageQuery(context, 1, 10) }, { query: pageQuery(context, 2, 10) }]);
  const [a, b] = [recordsOf(one!), recordsOf(two!)];
  return a && b ? identities(a).length === 10 && identities(b).length === 10 : undefined;
};

describe('atOneMoment: the one way a comparison is read while the data may move', () => {
  it('on data that stands still, the first read is one moment: its two requests and four reads of the first page', async () => {
    const { context, requests } = await alertsContext();
    const moment = await atOneMoment(context, pagesMeet(context));
    expect(moment).toEqual({ kind: 'one', value: true });
    expect(requests()).toBe(6);
  });

  it('on data that moves under every read, it could not, says why and keeps the last value read', async () => {
    const { context, arrive } = await alertsContext();
    const read = pagesMeet(context);
    const moment = await atOneMoment(context, async () => {
      arrive(1);
      return read();
    });
    expect(moment).toEqual({ kind: 'could-not', why: 'the data moved under each of 3 reads that could tell', last: true });
  });

  it('answers that agree settle it while the data moves; a value that does not settle waits for one moment', async () => {
    const { context, arrive } = await alertsContext();
    let reads = 0;
    const moving = async () => {
      reads += 1;
      arrive(1);
      return reads;
    };
    expect(await atOneMoment(context, moving, { settles: (n) => n === 2 })).toEqual({ kind: 'settled', value: 2 });
    // Moving only under the first read: the second is one moment.
    const once = async () => {
      reads += 1;
      if (reads === 3) arrive(1);
      return reads;
    };
    expect(await atOneMoment(context, once, { settles: () => false })).toEqual({ kind: 'one', value: 4 });
  });

  it('a read that cannot tell, or a still read the confirmation doubts, is read again; never more than 3 times', async () => {
    const { context } = await alertsContext();
    let reads = 0;
    const untold = await atOneMoment(context, async () => {
      reads += 1;
      return undefined;
    });
    expect(untold).toEqual({ kind: 'could-not', why: 'no read could tell', last: undefined });
    expect(reads).toBe(3);
    const doubted = await atOneMoment(context, async () => 'read', { confirm: async () => false });
    expect(doubted).toEqual({ kind: 'could-not', why: 'the data moved under each of 3 reads that could tell', last: 'read' });
  });

  it('a failed first-page read is no moment, and a stopped run reads nothing', async () => {
    const { context } = await alertsContext((request) =>
      new URL(request.url).searchParams.get('pageSize') === '100' ? new Response('{}', { status: 503 }) : undefined,
    );
    expect(await atOneMoment(context, async () => 1)).toMatchObject({ kind: 'could-not', last: 1 });
    const { context: other, requests } = await alertsContext();
    const stopped = await atOneMoment(other, async () => 1, { stop: AbortSignal.abort() });
    expect(stopped).toEqual({ kind: 'could-not', why: 'the run reached its deadline', last: undefined });
    expect(requests()).toBe(0);
  });
});
