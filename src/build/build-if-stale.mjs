// `npm start` and `npm run contract` build only when a source changed since the last build: a fresh
// `npm ci` has already built (prepare), so starting costs no compile.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const stamp = join(root, 'dist/.build-stamp');

/** The newest modification time of the files under `dir` (or of `dir` itself when it is a file). */
function newest(dir) {
  const stat = statSync(dir);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(dir).reduce((max, name) => Math.max(max, newest(join(dir, name))), 0);
}

const sources = ['src', 'spec', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((p) => join(root, p));
const stale = !existsSync(stamp) || sources.some((p) => existsSync(p) && newest(p) > statSync(stamp).mtimeMs);
if (stale) {
  // A rebuild takes a few seconds: say why nothing else shows meanwhile.
  console.error('tempmon: the sources changed since the last build; rebuilding dist/ first (a few seconds)...');
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', '-s', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(result.status ?? 1);
}
