// The other runtimes' toolchains (Bun, Deno, and workerd through wrangler) live apart from the kit's own
// dependencies, in toolchains/, installed by `npm run runtimes:install`, so that `npm ci` stays light. This
// finds one, or says how to get it: nothing is downloaded at run time. As a script,
// `node src/build/runtime-tool.mjs <tool> [args...]` runs the tool and exits as it does.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The command that installs the toolchains (from npm, into toolchains/node_modules). */
export const INSTALL = 'npm run runtimes:install';
/** The toolchains' folder, with its own package.json and lockfile. */
export const TOOLCHAINS = fileURLToPath(new URL('../../toolchains/', import.meta.url));

/** Where a tool's executable is once installed (bun, deno, workerd, wrangler). */
export const toolPath = (name) => `${TOOLCHAINS}node_modules/.bin/${name}`;

/** Why a tool cannot run here, in one line, or undefined when it is installed. */
export const missingTool = (name) =>
  existsSync(toolPath(name))
    ? undefined
    : `${name} is not installed here: run \`${INSTALL}\` (Bun, Deno, workerd and wrangler, from npm, into toolchains/)`;

/** Stops this process (exit 2, one line saying how to install it) unless the tool is installed. */
export function requireTool(name) {
  const missing = missingTool(name);
  if (!missing) return;
  console.error(`tempmon: ${missing}`);
  process.exit(2);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [name, ...args] = process.argv.slice(2);
  requireTool(name);
  // Deno checks for a newer release at start; the runtimes run offline.
  const result = spawnSync(toolPath(name), args, { stdio: 'inherit', env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } });
  if (result.signal) process.kill(process.pid, result.signal);
  process.exit(result.status ?? 2);
}
