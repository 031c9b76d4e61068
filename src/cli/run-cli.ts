import { setFlagsFromString } from 'node:v8';
import { closestMatch } from 'leven';
import { DataFileError } from '../fixtures/load-data-file.ts';
import { ContractSetupError } from '../contract/types.ts';
import { SpecError } from '../spec/load-spec.ts';
import { CliError } from './cli-error.ts';
import { kitVersion as version } from './kit-version.ts';

const HELP = `Usage: tempmon <command> [options]

Mock server and contract-testing kit for the temperature-monitoring alert and sensor listings.

Commands:
  serve        serve the mock with deterministic seeded data (or a data file)
  fixtures     write a generated dataset as a data file
  contract     check a running server against the spec (exit 0 conformant, 1 violations, 2 could not run)
  proxy        forward to a real deployment, checking every response against the spec
  assumptions  list what the spec assumes where the interface is silent

Options:
  -h, --help     show this help
  -v, --version  print the version of tempmon-kit

Run tempmon <command> --help for a command's options.`;

/** What the command line takes first: the commands and the top-level options (see HELP). */
const COMMANDS = ['serve', 'fixtures', 'contract', 'proxy', 'assumptions', 'help', '--help', 'version', '--version'];

/**
 * Parses the command line and runs the command: 0 done, 1 contract violations or inconclusive, 2 could not run
 * (or the kit failed).
 */
async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    // Each command is imported when run: `serve` must not pay for loading prism-http (contract).
    case 'serve': {
      const { serveCommand } = await import('./serve.ts');
      const running = await serveCommand(args);
      // A large dataset's search index is built in the background, and under load V8 would grow the young
      // generation to 128 MB and let the old one reach twice what lives: together, more than a million
      // records' index (issue 12, item 4: a million records within 500 MB). Both are then kept near what is
      // used. Not below that size: a young generation kept small promotes the garbage of requests in
      // flight, which made a fresh search term per request slower. Process-wide, so set here, where
      // the process is the server, not in serveCommand, which tests call in their own.
      if (running?.large) setFlagsFromString('--semi-space-growth-factor=1 --heap-growing-percent=20');
      if (running) {
        const stop = () => void running.close().then(() => process.exit(0));
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }
      return 0;
    }
    case 'proxy': {
      const running = await (await import('./proxy.ts')).proxyCommand(args);
      if (running) {
        const stop = () => void running.close().then(() => process.exit(0));
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }
      return 0;
    }
    case 'fixtures':
      await (await import('./fixtures.ts')).fixturesCommand(args);
      return 0;
    case 'contract':
      // The kit holds little (it reads at most --max-pages pages), but V8 left alone lets its young generation
      // grow and its old one reach several times what lives before collecting: the peak was V8's slack, not data
      // (issue 49, item 5; figures in docs/performance.md). Kept near what is used, as `serve` does for a large
      // dataset. Process-wide, so set here, where the process is the kit, not in runContract.
      setFlagsFromString('--semi-space-growth-factor=1 --heap-growing-percent=20');
      return (await import('./contract.ts')).contractCommand(args);
    case 'assumptions':
      (await import('./assumptions.ts')).assumptionsCommand(args);
      return 0;
    // No command is a request for orientation, not a failure: help on stdout, exit 0 (as gh, cargo, docker do).
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      console.log(HELP);
      return 0;
    case '-v':
    case '--version':
    case 'version':
      console.log(version());
      return 0;
    default: {
      // A typo gets the word it most likely meant (at most two edits away).
      const near = closestMatch(command, COMMANDS, { maxDistance: 2 });
      throw new CliError(`unknown command ${JSON.stringify(command)}${near ? `; did you mean ${near}?` : ''} (see tempmon --help)`);
    }
  }
}

/**
 * The CLI (`tempmon`): runs the command `argv` names and sets the process's exit code, printing a one-line
 * message for what went wrong.
 *
 * @example
 * await runCli(['contract', '--target', 'http://127.0.0.1:4010']);
 */
export const runCli = (argv: readonly string[]): Promise<void> =>
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const expected =
        error instanceof CliError || error instanceof DataFileError || error instanceof SpecError || error instanceof ContractSetupError;
      console.error(`tempmon: ${expected ? (error as Error).message : `unexpected error: ${String(error)}`}`);
      // Exit 1 means "the target broke the contract": a crash of the kit itself must never read as that.
      process.exitCode = 2;
    },
  );
