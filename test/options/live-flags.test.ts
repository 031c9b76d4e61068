import { describe, expect, it } from 'vitest';
import { EARLIEST_ANCHOR } from '../../src/live/live-options.ts';
import { parseServeArgs, serveOptions } from '../../src/options/serve-options.ts';
import { runtimeMock } from '../../src/options/runtime-options.ts';
import { spec } from '../helpers.ts';

const fail = (message: string) => new Error(message);
const read = (args: string[], env: Record<string, string> = {}, runtime = false) =>
  serveOptions(spec.document, parseServeArgs(spec.document, args, env, runtime, fail), env, fail);

describe('the live flags of tempmon serve', () => {
  it('are off unless --live or --clock is given', () => {
    expect(read([]).live).toBeUndefined();
    expect(read(['--live']).live).toEqual({ since: EARLIEST_ANCHOR });
    expect(read(['--clock', '2026-11-02T00:00:00Z']).live).toEqual({ since: EARLIEST_ANCHOR, clock: Date.parse('2026-11-02T00:00:00Z') });
    expect(read(['--live', '--live-rate', '4/s', '--live-since', '2026-11-05']).live).toEqual({
      rate: { count: 4, periodMs: 1_000 },
      since: Date.parse('2026-11-05T00:00:00Z'),
    });
  });

  it('refuse what live mode cannot do, in one line each', () => {
    const refusals: [string[], RegExp][] = [
      [['--live', '--data', 'x.json'], /^--live cannot be combined with --data: live mode serves generated data$/],
      [['--live-rate', '4/s'], /^--live-rate needs --live$/],
      [['--live-since', '2026-11-05'], /^--live-since needs --live$/],
      [['--live', '--live-rate', '101/s'], /^--live-rate must be a whole number per s, min, h or d.*got "101\/s"$/],
      [['--live', '--live-since', '2026-10-31T00:00:00Z'], /^--live-since must be 2026-11-01T06:00:00.000Z or later/],
      [['--live', '--live-since', 'yesterday'], /^--live-since must be an ISO 8601 instant/],
      // A time without a zone would mean another instant on each machine.
      [['--clock', '2026-11-05T10:00'], /^--clock must be an ISO 8601 instant/],
      [['--live', '--live-since', '2026-11-05', '--clock', '2026-11-04T00:00:00Z'], /^--clock must not be before the live anchor/],
    ];
    for (const [args, message] of refusals) expect(() => read(args), args.join(' ')).toThrow(message);
  });

  it("are read from variables by the runtime entries (a Worker's vars), with the same words", () => {
    const mock = runtimeMock(spec, { TEMPMON_LIVE: '1', TEMPMON_LIVE_RATE: '5/s', TEMPMON_CLOCK: '2026-11-03T00:00:00Z' });
    expect(mock.options.live).toEqual({
      rate: { count: 5, periodMs: 1_000 },
      since: EARLIEST_ANCHOR,
      clock: Date.parse('2026-11-03T00:00:00Z'),
    });
    expect(mock.banner('http://127.0.0.1:4010')).toContain(
      '  live: 5/s arrivals from 2026-11-01T06:00:00.000Z, clock frozen at 2026-11-03T00:00:00.000Z',
    );
    expect(runtimeMock(spec, { TEMPMON_LIVE: '0' }).options.live).toBeUndefined();
    expect(() => runtimeMock(spec, { TEMPMON_LIVE: 'yes' })).toThrow(/^TEMPMON_LIVE must be 1 or true/);
    expect(() => runtimeMock(spec, {}, ['--live-rate', '9/min'])).toThrow(/^--live-rate needs --live$/);
  });
});
