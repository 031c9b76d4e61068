// The other runtimes come from toolchains/ (`npm run runtimes:install`), never downloaded when they run: a
// missing one is refused at once with the command that installs it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSTALL, missingTool, toolPath } from '../../src/build/runtime-tool.mjs';

const script = fileURLToPath(new URL('../../src/build/runtime-tool.mjs', import.meta.url));

describe('runtime-tool', () => {
  it('refuses a tool that is not installed with one line naming the install command, exit 2', () => {
    const run = spawnSync(process.execPath, [script, 'no-such-runtime', '--version'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'tempmon: no-such-runtime is not installed here: run `npm run runtimes:install` (Bun, Deno, workerd and wrangler, from npm, into toolchains/)\n',
    );
    expect(INSTALL).toBe('npm run runtimes:install');
    expect(toolPath('bun')).toMatch(/\/toolchains\/node_modules\/\.bin\/bun$/);
  });

  it('runs an installed tool with its arguments and exits as it does', (context) => {
    // Said after the run's summary (test/skip-notice.ts), with how to get it.
    if (missingTool('bun')) return context.skip('Bun is not installed: npm run runtimes:install');
    const run = spawnSync(process.execPath, [script, 'bun', '-e', 'console.log(Bun.version); process.exit(3)'], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(run.status).toBe(3);
  });
});
