// Issue 51, items 5 and 6: the README is for users. It stays short, explains what a run prints, keeps the
// contributors' material (test files, the layout, the bench's tables) in CONTRIBUTING.md and docs/, and its command
// for a clone is one package.json has, which answers at once (stdout and stderr apart).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../built-cli.ts';

const README = readFileSync(`${ROOT}/README.md`, 'utf8');
const CONTRIBUTING = readFileSync(`${ROOT}/CONTRIBUTING.md`, 'utf8');
const PACKAGE = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> };

describe('the README', () => {
  it('is at most 450 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(450);
  });

  it('explains what a run prints: PART, the summary in checks, the pairs covered and the covering set', () => {
    for (const said of [
      '`PART` is a pass on part of the claim',
      '`pairs of parameter classes covered`',
      '**covering set** is 112 requests',
    ])
      expect(README).toContain(said);
  });

  it('leaves test files, the layout and the bench tables to CONTRIBUTING.md and docs/', () => {
    expect(README).not.toMatch(/\btest\/[\w/.-]+\.ts\b/);
    expect(README).not.toMatch(/^## Layout$/m);
    expect(README).not.toContain('bench-table:start');
    expect(CONTRIBUTING).toMatch(/^## Layout$/m);
    expect(CONTRIBUTING).toContain('TEMPMON_PG_LARGE=1');
  });

  it("gives its clone's command as a script package.json has, which answers at once on this Node", () => {
    expect(README).toContain('`npm run -s tempmon --`');
    expect(PACKAGE.scripts.tempmon).toMatch(/^node src\/build\/require-node\.mjs && /);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const help = spawnSync(npm, ['run', '-s', 'tempmon', '--', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: tempmon <command> \[options\]/);
    // dist/ is current (npm test builds first): nothing rebuilt, nothing on stderr.
    expect(help.stderr).toBe('');
  });
});
