// A live page is replayed by the node:http listener while its data holds (many requests come between two
// arrivals), and the replay changes nothing a client sees: the moment still states what was served, and
// the bytes are those the app makes for that moment, so replicas still agree. Over real HTTP.
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock, type Mock } from '../../src/server/create-app.ts';
import { nodeListener } from '../../src/server/node-listener.ts';
import { KEY, spec } from '../helpers.ts';

const ANCHOR = Date.parse('2026-11-01T06:00:00.000Z');
const PAGE = '/alert?page=3&pageSize=20';
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

const liveMock = (clock: () => number, rate = '100/s') =>
  createMock({ spec, dataset: { seed: 3, counts: { alerts: 500, sensors: 40 } }, live: { rate, clock } });

/** A mock served over node:http, counting its replays. */
async function served(mock: Mock) {
  const counted = { replays: 0 };
  const server = createServer(
    nodeListener({
      ...mock,
      replay: (request, response) => {
        const done = mock.replay(request, response);
        if (done) counted.replays += 1;
        return done;
      },
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`, { headers: { 'x-api-key': KEY } });
    const headers = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
    return { status: response.status, headers, body: await response.text() };
  };
  return { get, counted };
}

/** The headers that say what was served (node:http adds its own framing; links name the server's origin). */
const STATED = ['content-type', 'etag', 'link', 'x-total-count', 'tempmon-moment'];
const stated = (answer: { status: number; headers: Record<string, string>; body: string }) => ({
  status: answer.status,
  headers: Object.fromEntries(STATED.map((name) => [name, answer.headers[name]?.replaceAll(/<http:\/\/[^/]+/g, '<')])),
  body: answer.body,
});

/** What an app with its clock frozen at `moment` answers, through no listener: the reference. */
async function frozenAt(moment: number, path: string) {
  const response = await liveMock(() => moment).app.request(path, { headers: { 'x-api-key': KEY } });
  return stated({ status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() });
}

describe('a live page replayed by the listener', () => {
  it('is the bytes and headers the app makes at the moment it states, its own moment, replica or not', async () => {
    let now = ANCHOR + 3_600_000 + 5;
    const [one, two] = [await served(liveMock(() => now)), await served(liveMock(() => now))];
    let replays = 0;
    // Over three seconds of arrivals, in steps of a millisecond (a page's data holds a few of them at
    // 100/s) and of a few hundred, each page asked three times: the third is replayed when its data held.
    for (const step of [0, 1, 1, 1, 1, 1, 1, 250, 1, 1, 1, 999, 1, 1, 2_000, 1]) {
      now += step;
      const reference = await frozenAt(now, PAGE);
      for (const replica of [one, two]) {
        const before = replica.counted.replays;
        for (let ask = 0; ask < 3; ask += 1) {
          const answer = await replica.get(PAGE);
          expect(stated(answer), `at +${now - ANCHOR} ms`).toEqual(reference);
          expect(answer.headers['tempmon-moment']).toBe(new Date(now).toISOString());
        }
        replays += replica.counted.replays - before;
      }
    }
    // Most asks were replayed: a version of the page outlives the millisecond steps.
    expect(replays).toBeGreaterThan(16);
  });

  it('reads the clock once per request, replayed or answered by the app', async () => {
    let reads = 0;
    const mock = await served(
      liveMock(() => {
        reads += 1;
        return ANCHOR + 7_200_000;
      }, '4/s'),
    );
    await mock.get(PAGE);
    for (const replayed of [false, true, true]) {
      const [before, replaysBefore] = [reads, mock.counted.replays];
      await mock.get(PAGE);
      expect(reads - before).toBe(1);
      expect(mock.counted.replays - replaysBefore).toBe(replayed ? 1 : 0);
    }
  });
});
