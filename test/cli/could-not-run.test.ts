// Issue 51, item 1: when `tempmon contract` cannot run, it says why once, on stdout, the verdict line last (whole
// when short; cut, with the whole reason on the line above, when not), and nothing on stderr: a CI log that keeps
// stdout has the whole reason, a terminal shows it once. The built CLI, stdout and stderr captured apart.
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.ts';
import { closedTarget } from '../closed-target.ts';
import { LISTING_PATHS, LISTINGS } from '../helpers.ts';
import { runCli, startInProcess } from './cli-helpers.ts';

const SECRET = 'could-not-run-secret-3f9a';
const DOWN = closedTarget();
const VERDICT_LINE_CHARS = 200;
/** A prefix long enough that the reason does not fit on the verdict line. */
const LONG = 'a-deployment-prefix-long-enough-to-push-the-reason-past-the-verdict-line';

/** The exit-2 cases a newcomer meets, each with the reason it must give. */
async function cases(): Promise<[string, string[], Record<string, string>, RegExp][]> {
  const { url } = await startInProcess(serveCommand, ['--quiet', '--api-key', SECRET]);
  return [
    ['no key', ['--target', url], { TEMPMON_API_KEY: '' }, /no API key: set TEMPMON_API_KEY or pass --api-key/],
    ['connection refused', ['--target', DOWN], { TEMPMON_API_KEY: SECRET }, /cannot reach .*\/alert: connection refused/],
    ['a key the target refuses', ['--target', url], { TEMPMON_API_KEY: `${SECRET}-wrong` }, /refused the API key \(401\)/],
    ['no scheme', ['--target', url.replace('http://', '')], { TEMPMON_API_KEY: SECRET }, /--target must be an http\(s\) URL/],
    ['a bad option', ['--target', url, '--concurrency', '0'], { TEMPMON_API_KEY: SECRET }, /--concurrency must be an integer/],
    ['an unknown option', ['--target', url, '--bogus'], { TEMPMON_API_KEY: SECRET }, /unknown option --bogus/],
    ['every listing a 404', ['--target', `${url}/v1`], { TEMPMON_API_KEY: SECRET }, /every listing request got 404 .*\/v1\/alert/],
    ['every listing a 404, long', ['--target', `${url}/${LONG}`], { TEMPMON_API_KEY: SECRET }, /every listing request got 404 /],
  ];
}

describe('tempmon contract that cannot run', () => {
  it('says why once, on stdout, the verdict line last, nothing on stderr, exit code 2, never the key', async () => {
    const runs = await Promise.all(
      (await cases()).map(async ([name, args, env, reason]) => ({ name, reason, result: await runCli(['contract', ...args], env) })),
    );
    for (const { name, reason, result } of runs) {
      expect(result.status, name).toBe(2);
      expect(result.stderr, name).toBe('');
      expect(result.stdout, name).not.toContain(SECRET);
      const lines = result.stdout.trimEnd().split('\n');
      const verdict = lines.at(-1)!;
      expect(verdict, name).toMatch(/^COULD NOT RUN: /);
      expect(verdict.length, name).toBeLessThanOrEqual(VERDICT_LINE_CHARS);
      if (lines.length === 1) {
        // Short: the verdict line is the whole message.
        expect(verdict, name).toMatch(reason);
        expect(verdict, name).not.toContain('…');
      } else {
        // Long: the whole reason on the line above, once; the verdict line cut, pointing up at it.
        expect(lines, name).toHaveLength(2);
        expect(lines[0], name).toMatch(/^why: /);
        expect(lines[0], name).toMatch(reason);
        expect(verdict, name).toMatch(/… \(whole reason above\)$/);
      }
    }
    // A 404 for every listing, with its hint naming every listing; no prefix suggested to a target that has one.
    // One line when it fits (our two listings' URLs do), else the whole reason on the line above.
    const short = runs
      .find((run) => run.name === 'every listing a 404')!
      .result.stdout.trimEnd()
      .split('\n');
    const reason = short[0]!.replace(/^(COULD NOT RUN|why): /, '');
    expect(reason).toMatch(/^every listing request got 404 \(.*\) \(is --target the API's base URL\? /);
    expect(reason.endsWith(`The kit appends ${LISTING_PATHS} to it)`), reason).toBe(true);
    expect(short).toHaveLength(`COULD NOT RUN: ${reason}`.length <= VERDICT_LINE_CHARS ? 1 : 2);
    const long = runs.find((run) => run.name === 'every listing a 404, long')!.result.stdout.split('\n');
    const urls = LISTINGS.map((op) => `.*/${LONG}${op.path}`).join(', ');
    expect(long[0]).toMatch(new RegExp(`^why: every listing request got 404 \\(${urls}\\) \\(is --target`));
  });
});
