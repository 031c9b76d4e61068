// `tempmon` itself: no command, --version, and what the help texts promise.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACT_HELP } from '../../src/cli/contract.ts';
import { proxyHelp } from '../../src/cli/proxy.ts';
import { serveHelp } from '../../src/cli/serve.ts';
import { spec } from '../helpers.ts';
import { runCli } from './cli-helpers.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The built CLI, without blocking: both runs below go in parallel. */
const tempmon = (...args: string[]) => runCli(args);
const SERVE_HELP = serveHelp(spec.document);

/** The lines of a help text's Options: block (up to the first blank line). */
const optionsBlock = (help: string): string[] =>
  help
    .split('\n\n')
    .find((block) => block.startsWith('Options:'))!
    .split('\n');

describe('tempmon', () => {
  it('prints the package version with --version, and help (exit 0) with no command', async () => {
    const [version, bare] = await Promise.all([tempmon('--version'), tempmon()]);
    expect(version).toMatchObject({ status: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(bare.status).toBe(0);
    expect(bare.stdout).toMatch(/^Usage: tempmon <command>/);
    expect(bare.stdout).toMatch(/-v, --version/);
    expect(bare.stderr).toBe('');
  });

  it('lists -h, --help among the options of serve and proxy, not inside a paragraph', () => {
    for (const help of [SERVE_HELP, proxyHelp(spec.document)]) {
      expect(optionsBlock(help).at(-1)).toMatch(/^ {2}-h, --help {2,}show this help$/);
      expect(help.match(/--help/g)).toHaveLength(1);
    }
  });

  it('says which keys serve accepts, and names the key refused among contract exit-2 causes', () => {
    expect(SERVE_HELP).toContain('TEMPMON_API_KEY');
    expect(CONTRACT_HELP).toMatch(/2: could not run \([^)]*key refused/);
  });
});
