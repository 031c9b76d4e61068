// Issue 51, item 3: an unknown option gets what was most likely meant: the nearest option of that command, or
// the command it belongs to; a --target without its scheme gets the URL with it. The built CLI, stdout and stderr
// captured apart: contract says it on stdout (its verdict line, see could-not-run.test.ts), the others on stderr.
import { describe, expect, it, vi } from 'vitest';
import { assumptionsCommand } from '../../src/cli/assumptions.ts';
import { contractCommand } from '../../src/cli/contract.ts';
import { fixturesCommand } from '../../src/cli/fixtures.ts';
import { proxyCommand } from '../../src/cli/proxy.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { CONTRACT_FLAGS } from '../../src/contract/options/contract-flags.ts';
import { commandFlags } from '../../src/options/command-flags.ts';
import { unknownOption } from '../../src/options/unknown-option.ts';
import { spec } from '../helpers.ts';
import { runCli, usageError } from './cli-helpers.ts';

/** Through the built CLI: the streams each command says it on. */
const PROCESSES: [string[], 'stdout' | 'stderr', string][] = [
  [['contract', '--seeed', '3'], 'stdout', 'unknown option --seeed; did you mean --seed? (see tempmon contract --help)'],
  [
    ['serve', '--concurrency', '4'],
    'stderr',
    'unknown option --concurrency: it is a contract option, not a serve one (see tempmon serve --help)',
  ],
  [
    ['contract', '--target', '127.0.0.1:4010'],
    'stdout',
    '--target must be an http(s) URL, got "127.0.0.1:4010"; did you mean http://127.0.0.1:4010?',
  ],
];

/** In this process: the message each command fails with (contract's, its verdict line). */
const MESSAGES: [string[], string][] = [
  [['contract', '--conccurency', '4'], 'unknown option --conccurency; did you mean --concurrency? (see tempmon contract --help)'],
  [['contract', '--targt', 'x'], 'unknown option --targt; did you mean --target? (see tempmon contract --help)'],
  [['contract', '--strct'], 'unknown option --strct; did you mean --strict? (see tempmon contract --help)'],
  [['contract', '--port', '1'], 'unknown option --port: it is a serve and proxy option, not a contract one (see tempmon contract --help)'],
  [['serve', '--prot', '4011'], 'unknown option --prot; did you mean --port? (see tempmon serve --help)'],
  [['serve', '--aletrs', '10'], 'unknown option --aletrs; did you mean --alerts? (see tempmon serve --help)'],
  [['proxy', '--concurency', '2'], 'unknown option --concurency; did you mean --concurrency? It is a contract option, not a proxy one'],
  [['fixtures', '--sed', '2'], 'unknown option --sed; did you mean --seed? (see tempmon fixtures --help)'],
  [['assumptions', '--readmee', 'x'], 'unknown option --readmee; did you mean --readme? (see tempmon assumptions --help)'],
  [['proxy', '--target', 'localhost:4010/v1'], 'did you mean http://localhost:4010/v1?'],
];

/** What `tempmon <args>` fails with, run in this process. */
async function failure([command, ...args]: string[]): Promise<string> {
  if (command === 'contract') {
    const lines: string[] = [];
    expect(await contractCommand(args, (line) => lines.push(line))).toBe(2);
    return lines.join('\n');
  }
  const run = { serve: serveCommand, proxy: proxyCommand, fixtures: fixturesCommand, assumptions: assumptionsCommand }[command!]!;
  return (await usageError(() => run(args, () => undefined))).message;
}

describe('"did you mean" for options', () => {
  it('says it once, on the stream the command speaks on, exit code 2', async () => {
    const runs = await Promise.all(PROCESSES.map(([args]) => runCli(args, { TEMPMON_API_KEY: 'k' })));
    runs.forEach((result, i) => {
      const [args, where, message] = PROCESSES[i]!;
      expect(result.status, args.join(' ')).toBe(2);
      const [said, quiet] = where === 'stdout' ? [result.stdout, result.stderr] : [result.stderr, result.stdout];
      expect(said, args.join(' ')).toMatch(where === 'stdout' ? /^COULD NOT RUN: [^\n]+\n$/ : /^tempmon: [^\n]+\n$/);
      expect(said, args.join(' ')).toContain(message);
      expect(quiet, args.join(' ')).toBe('');
    });
  });

  it.each(MESSAGES)('tempmon %j: the nearest option of that command, or the command it belongs to', async (args, message) => {
    vi.stubEnv('TEMPMON_API_KEY', 'k');
    expect(await failure(args)).toContain(message);
  });

  it("reads every option from the commands' own tables: a flag added to one is suggested and placed with no other change", () => {
    const all = commandFlags(spec.document);
    // Each command's help options are the flags it parses; each is found from a one-letter typo.
    for (const [command, flags] of Object.entries(all)) {
      const others = Object.fromEntries(Object.entries(all).filter(([name]) => name !== command));
      for (const flag of flags.filter((f) => f.name.length >= 4 && f.name !== 'help')) {
        const typo = `${flag.name.slice(0, -1)}x`;
        expect(unknownOption(typo, flags, command, others), `${command} --${typo}`).toBe(
          `unknown option --${typo}; did you mean --${flag.name}?`,
        );
      }
    }
    expect(all.contract).toBe(CONTRACT_FLAGS);
  });

  it('suggests nothing far off: two edits at most, and at most half the word', () => {
    expect(unknownOption('bogus', CONTRACT_FLAGS, 'contract', {})).toBe('unknown option --bogus');
    expect(unknownOption('xy', [{ name: 'ab' }], 'serve', {})).toBe('unknown option --xy');
  });
});
