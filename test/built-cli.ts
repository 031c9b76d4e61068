// The built CLI (dist/, made by `npm run build`, which `npm ci` and `npm test` run before vitest) is what
// the CLI tests start: `node dist/cli/main.js` starts in a quarter of a second, through tsx in one.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../', import.meta.url).pathname;
/** The built CLI, as the package's bin runs it. */
export const MAIN = join(ROOT, 'dist/cli/main.js');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), 0);
}

/** Why dist/ must be built again, or undefined when it is current. */
export function distStaleness(): string | undefined {
  if (!existsSync(MAIN) || !existsSync(join(ROOT, 'dist/openapi.json'))) return 'dist/ is missing';
  const built = Math.min(statSync(MAIN).mtimeMs, statSync(join(ROOT, 'dist/openapi.json')).mtimeMs);
  const source = Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'spec/openapi.yaml')));
  return source > built ? 'a source file is newer than dist/' : undefined;
}

/** Runs `npm run build` when dist/ is missing or stale; throws with the compiler's output when it fails. */
export function ensureBuilt(): void {
  const stale = distStaleness();
  if (!stale) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', '-s', 'build'], { cwd: ROOT, encoding: 'utf8', timeout: 170_000 });
  if (result.status !== 0)
    throw new Error(`${stale}, and \`npm run build\` failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
}
