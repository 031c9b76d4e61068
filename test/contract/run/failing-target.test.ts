// Issue 51, item 2: a target that answers 500 to everything gets a short, consistent answer. Said once per
// listing, what depends on it skipped under that line, counted in one unit (checks) in the summary and the
// verdict, and no check passes there without having seen a listing. The target is a child process (the kit's
// own event loop is not the target's); the built CLI, stdout and stderr captured apart.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../../src/contract/checks/index.ts';
import { LISTING_PATHS, LISTINGS } from '../../helpers.ts';
import { runCli } from '../../cli/cli-helpers.ts';

const SERVER = `
const server = require('node:http').createServer((request, response) => {
  request.resume();
  response.writeHead(500, { 'content-type': 'text/plain' });
  response.end('boom');
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;

let child: ChildProcess;
let target = '';
beforeAll(async () => {
  child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
  target = `http://127.0.0.1:${port.trim()}`;
});
afterAll(() => {
  child.kill();
});

describe('a target answering 500 to everything', () => {
  it('is said once per listing, with what it skips under it, counted in checks everywhere, nothing PASS', async () => {
    const result = await runCli(['contract', '--target', target, '--seed', '1'], { TEMPMON_API_KEY: 'failing-target-key' });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');

    // Once per listing, the count of its requests; never the per-check echo of it.
    for (const { path } of LISTINGS)
      expect(lines.filter((line) => line.startsWith(`every request to ${path} got `))).toEqual([
        expect.stringMatching(new RegExp(`^every request to ${path} got 500 text/plain: \\d+ requests$`)),
      ]);
    expect(result.stdout).not.toContain('page 1 of size 100 got');
    // Our two listings took 99 lines before, 60 is the bound for them; not_a_server_error shows both the 500s seen alone
    // too and those the run's re-sends did not reach. Each listing adds its own lines (its findings, its timing).
    expect(lines.length).toBeLessThan(30 * LISTINGS.length);

    // The checks skipped under it, each named once; none of them has a block of its own.
    const folded = lines
      .slice(
        lines.findIndex((l) => l.startsWith('  SKIP on ')),
        lines.findIndex((l, i) => i > 0 && /^(PASS|PART|WARN|FAIL|SKIP) /.test(l)),
      )
      .join(' ')
      .replace(/^.*for want of a listing answer: /, '')
      .split(/,\s+/)
      .map((name) => name.trim());
    expect(folded).toContain('other_roads_to_data');
    expect(folded).toContain('ignored_auth');
    for (const name of folded) expect(result.stdout).not.toMatch(new RegExp(`^(PASS|PART|WARN|FAIL|SKIP) ${name}:`, 'm'));

    // Nothing passes on a server that never answered a listing: what passed on the answers it saw says so.
    expect(result.stdout).not.toMatch(/^PASS /m);
    expect(result.stdout).toMatch(/^PART response_received: /m);
    expect(result.stdout).toMatch(/^FAIL not_a_server_error: /m);

    // One unit: the summary's checks add up to every check, and the verdict counts the same checks skipped.
    const [, checks, passed, part, failed, skipped] =
      /^(\d+) checks: (\d+) passed, (\d+) passed in part \(PART\), (\d+) failed, (\d+) skipped$/m.exec(result.stdout)!.map(Number);
    expect(checks).toBe(ALL_CHECKS.length);
    expect(passed! + part! + failed! + skipped!).toBe(checks);
    const verdict = lines.at(-1)!;
    expect(verdict).toBe(
      `NOT conformant: 1 check failed (not_a_server_error); and ${folded.length} requested checks could not be evaluated: every request to ${LISTING_PATHS} got 500 text/plain`,
    );
    // The opt-in check is the one skipped that does not make the run inconclusive.
    expect(skipped).toBe(folded.length + 1);
    expect(result.stdout).not.toMatch(/^why: /m);
  });
});
