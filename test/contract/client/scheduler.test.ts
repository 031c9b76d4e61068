import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from '../../../src/contract/client/concurrency-limit.ts';
import { createScheduler } from '../../../src/contract/client/scheduler.ts';

/**
 * Sends that answer only when told to, recording what was in flight: time here is the test's own, not the
 * clock's, so nothing depends on timing.
 */
function controlled() {
  const log: string[] = [];
  const open = new Map<string, () => void>();
  let inFlight = 0;
  let most = 0;
  const send = (name: string) => () =>
    new Promise<string>((resolve) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      log.push(name);
      open.set(name, () => {
        inFlight -= 1;
        resolve(name);
      });
    });
  /** Lets the microtasks run, so that whatever may start has started. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const finish = async (name: string) => {
    open.get(name)!();
    open.delete(name);
    await settle();
  };
  return { send, log, finish, settle, open: () => [...open.keys()], most: () => most };
}

describe('the scheduler', () => {
  it('keeps at most `concurrency` requests in flight, the highest priority first, in queue order within one', async () => {
    const t = controlled();
    const scheduler = createScheduler({ concurrency: 2 });
    for (const name of ['a', 'b', 'c']) void scheduler.inTurn(t.send(name));
    void scheduler.inTurn(t.send('urgent'), 1);
    await t.settle();
    expect(t.log).toEqual(['a', 'b']);
    await t.finish('a');
    expect(t.log).toEqual(['a', 'b', 'urgent']);
    await t.finish('b');
    expect(t.log).toEqual(['a', 'b', 'urgent', 'c']);
    expect(t.most()).toBe(2);
  });

  it('lets a group through whole: it waits until all its members fit, and nothing queued after it goes first', async () => {
    const t = controlled();
    const scheduler = createScheduler({ concurrency: 3 });
    void scheduler.inTurn(t.send('a'));
    void scheduler.inTurn(t.send('b'));
    const group = scheduler.together([t.send('g1'), t.send('g2'), t.send('g3')]);
    void scheduler.inTurn(t.send('after'));
    await t.settle();
    // One slot is free, but the group needs three: it waits, and so does what was queued after it.
    expect(t.log).toEqual(['a', 'b']);
    await t.finish('a');
    expect(t.log).toEqual(['a', 'b']);
    await t.finish('b');
    expect(t.log).toEqual(['a', 'b', 'g1', 'g2', 'g3']);
    for (const name of ['g1', 'g2', 'g3']) await t.finish(name);
    expect(await group).toEqual(['g1', 'g2', 'g3']);
    expect(t.log.at(-1)).toBe('after');
    expect(t.most()).toBe(3);
  });

  it('sends a group larger than the limit alone, never above the limit, nothing else between its members', async () => {
    const t = controlled();
    const scheduler = createScheduler({ concurrency: 1 });
    void scheduler.together([t.send('g1'), t.send('g2')]);
    void scheduler.inTurn(t.send('other'), 5);
    await t.settle();
    expect(t.open()).toEqual(['g1']);
    await t.finish('g1');
    expect(t.open()).toEqual(['g2']);
    await t.finish('g2');
    expect(t.log).toEqual(['g1', 'g2', 'other']);
    expect(t.most()).toBe(1);
  });

  it('answers undefined for what the deadline stopped, and an empty group at once', async () => {
    const stop = new AbortController();
    stop.abort();
    const scheduler = createScheduler({ concurrency: 2, signal: stop.signal });
    const t = controlled();
    expect(await scheduler.together([t.send('x'), t.send('y')])).toEqual([undefined, undefined]);
    expect(await scheduler.together([])).toEqual([]);
    expect(t.log).toEqual([]);
  });

  it('after a 429, one request at a time', async () => {
    const t = controlled();
    const scheduler = createScheduler({ concurrency: 4 });
    scheduler.backOff(0);
    for (const name of ['a', 'b']) void scheduler.inTurn(t.send(name));
    await t.settle();
    expect(t.open()).toEqual(['a']);
  });

  it('follows a limit learned from the target, within --concurrency, and still lets a group through whole', async () => {
    const t = controlled();
    const limit = createConcurrencyLimit(4);
    const scheduler = createScheduler({ concurrency: 4, limit });
    for (const name of ['a', 'b', 'c']) void scheduler.inTurn(t.send(name));
    await t.settle();
    // The limit starts at 2.
    expect(t.open()).toEqual(['a', 'b']);
    const group = scheduler.together([t.send('g1'), t.send('g2'), t.send('g3')]);
    // a and b answered at their unloaded speed: a window of 2, so the limit rises to 3.
    limit.sample({ kind: '/alert page', latencyMs: 30, inFlight: 2, failed: false });
    limit.sample({ kind: '/alert page', latencyMs: 30, inFlight: 2, failed: false });
    await t.finish('a');
    await t.finish('b');
    expect(limit.current()).toBe(3);
    // The group of 3 waits for c's slot: it starts whole, never split by the limit.
    expect(t.open()).toEqual(['c']);
    await t.finish('c');
    expect(t.open()).toEqual(['g1', 'g2', 'g3']);
    for (const name of ['g1', 'g2', 'g3']) await t.finish(name);
    await group;
    expect(t.most()).toBe(3);
  });

  it("lets requests behind one held by its kind's own limit go first, within the limit of all", async () => {
    const t = controlled();
    const limit = createConcurrencyLimit(4);
    for (let i = 0; i < 20; i += 1) limit.sample({ kind: '/alert page', latencyMs: 30, inFlight: limit.current(), failed: false });
    // A search takes 100 ms alone and 400 ms beside another: the target runs one at a time.
    limit.sample({ kind: '/alert search', latencyMs: 100, inFlight: 1, failed: false });
    for (let i = 0; i < 5; i += 1) limit.sample({ kind: '/alert search', latencyMs: 400, inFlight: 4, kindInFlight: 2, failed: false });
    expect([limit.current(), limit.currentOf('/alert search'), limit.currentOf('/alert page')]).toEqual([4, 1, 4]);
    const scheduler = createScheduler({ concurrency: 4, limit });
    void scheduler.inTurn(t.send('s1'), 0, '/alert search');
    void scheduler.inTurn(t.send('s2'), 5, '/alert search');
    for (const name of ['p1', 'p2', 'p3', 'p4']) void scheduler.inTurn(t.send(name), 0, '/alert page');
    await t.settle();
    // s2 goes before the pages by its priority, but its kind is full: the pages behind it go, up to the limit of all.
    expect(t.open()).toEqual(['s1', 'p1', 'p2', 'p3']);
    expect([scheduler.inFlightOf('/alert search'), scheduler.inFlightOf('/alert page')]).toEqual([1, 3]);
    await t.finish('p1');
    expect(t.open()).toEqual(['s1', 'p2', 'p3', 'p4']);
    await t.finish('s1');
    expect(t.open()).toEqual(['p2', 'p3', 'p4', 's2']);
  });

  it('runs a request alone: after what is in flight ends, before anything queued, nothing else meanwhile', async () => {
    const t = controlled();
    const scheduler = createScheduler({ concurrency: 4 });
    for (const name of ['a', 'b']) void scheduler.inTurn(t.send(name));
    await t.settle();
    const alone = scheduler.alone(async (mayGo) => {
      // Two requests in turn, as a probe and then the request sent again.
      const probe = (await mayGo()) ? await t.send('probe')() : undefined;
      return [probe, (await mayGo()) ? await t.send('again')() : undefined];
    });
    void scheduler.inTurn(t.send('c'), 10);
    await t.settle();
    expect(t.open()).toEqual(['a', 'b']);
    await t.finish('a');
    expect(t.open()).toEqual(['b']);
    await t.finish('b');
    expect(t.open()).toEqual(['probe']);
    await t.finish('probe');
    expect(t.open()).toEqual(['again']);
    await t.finish('again');
    expect(await alone).toEqual(['probe', 'again']);
    expect(t.open()).toEqual(['c']);
    expect(t.log).toEqual(['a', 'b', 'probe', 'again', 'c']);
  });
});
