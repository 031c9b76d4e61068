// Issue 49, item 2: an answer holding only the credential its own request carried is a note, never failing the
// run, even under --strict; the key handed to a request that did not carry it stays an error.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, runInProcess, spec } from '../../helpers.ts';
import { KEY_HEADER, VALID_KEY, brokenMock, type Fault } from '../targets/broken-mocks.ts';
import { refusing } from '../targets/unlisted-faults.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 30, sensors: 10 } } });
const CHECKS = ['no_secret_in_answers', 'ignored_auth'];

/** A server refusing every other key with a 401 whose problem says `detail` and sets `instance` to the URL as sent. */
const server = (name: string, detail: (key: string | null) => string): Fault => ({
  name,
  caughtBy: 'no_secret_in_answers',
  severity: 'error',
  handle: async (request, next) => {
    const answer = await refusing(detail)(request, next);
    if (answer.status !== 401) return answer;
    const body = (await answer.json()) as Record<string, unknown>;
    const url = new URL(request.url);
    return new Response(JSON.stringify({ ...body, instance: `${url.pathname}${url.search}` }), answer);
  },
});

describe('no_secret_in_answers: an echo is a note', () => {
  it('a 401 echoing the key the request carried (its look-alikes, the URL whose query held the right key): conformant under --strict, the note shown', async () => {
    const echo = server('echo', (key) => `key ${JSON.stringify(key)} is not valid`);
    const report = await runInProcess(brokenMock(app, echo), { strict: true, seed: 3, checks: CHECKS });
    const outcomes = report.outcomes.filter((o) => o.check === 'no_secret_in_answers');
    expect(outcomes.map((o) => o.status)).toEqual(LISTINGS.map(() => 'passed'));
    const notes = outcomes.flatMap((o) => o.failures);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((f) => f.severity === 'note')).toBe(true);
    expect(notes[0]!.message).toMatch(/echo the credential the request carried/);
    // The right key in the query, echoed in `instance`, is among them: the query road's probe carried it.
    expect(notes.some((f) => f.exchange?.request.url.includes(`${KEY_HEADER}=`))).toBe(true);
    expect(report.verdict).toBe('conformant');
  });

  it('the twin naming the right key in its 401 to a request that did not carry it: an error', async () => {
    const leak = server('leak', (key) => `key ${JSON.stringify(key)} is not valid; expected ${VALID_KEY}`);
    const report = await runInProcess(brokenMock(app, leak), { strict: false, seed: 3, checks: CHECKS });
    const failed = report.outcomes.filter((o) => o.check === 'no_secret_in_answers' && o.status === 'failed');
    expect(failed.length).toBe(LISTINGS.length);
    expect(failed.flatMap((o) => o.failures).some((f) => f.severity === 'error' && /did not carry/.test(f.message))).toBe(true);
    expect(report.verdict).toBe('not conformant');
  });
});
