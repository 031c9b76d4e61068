// The bin after a rebuild, as a contributor gets it: a fresh clone where npx already ran in an earlier clone at
// the same path (npm's cache kept), then `rm -rf dist && npm run build`. tsc writes files -rw-r--r--, and npm sets
// the mode of a package's own bin only when it installs; the build must make it executable itself. The clones
// share this repository's node_modules (a link), so the test costs two builds, not two installs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const dir = mkdtempSync(join(tmpdir(), 'tempmon-bin-'));
const clone = join(dir, 'kit');
// npm run sets variables describing this repository's package; the clone's commands must not see them.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'));

function run(command: string, args: readonly string[], cwd = clone) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  expect(result.status, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** A fresh clone of this repository's HEAD at `clone`, with node_modules linked in. */
function freshClone(): void {
  rmSync(clone, { recursive: true, force: true });
  run('git', ['clone', '--quiet', '--no-hardlinks', root, clone], dir);
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the tempmon bin', () => {
  it('is executable after every build, and npx runs it, in a fresh clone where npx ran before', () => {
    freshClone();
    run('npm', ['run', '-s', 'build']);
    expect(run('npx', ['--no', '--', 'tempmon', '--version']).trim()).toBe(version);

    freshClone();
    rmSync(join(clone, 'dist'), { recursive: true, force: true });
    run('npm', ['run', '-s', 'build']);
    const mode = statSync(join(clone, 'dist/cli/main.js')).mode & 0o777;
    expect(mode.toString(8)).toBe('755');
    expect(run('npx', ['--no', '--', 'tempmon', '--version']).trim()).toBe(version);
  }, 300_000);
});
