// The one flag parser of every command and runtime entry: what it reads, and the one line it refuses with.
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlagShape } from '../../src/options/flag-shape.ts';
import { parseFlags } from '../../src/options/parse-flags.ts';

const FLAGS: readonly FlagShape[] = [
  { name: 'port', value: 'N' },
  { name: 'api-key', value: 'KEY', multiple: true },
  { name: 'quiet' },
  { name: 'help', short: 'h' },
];
const parse = (args: readonly string[]) => parseFlags(args, FLAGS, 'serve', (message) => new Error(message));
const refusal = (args: readonly string[]) => {
  try {
    parse(args);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted ${args.join(' ')}`);
};

describe('parseFlags', () => {
  it('reads --name value, --name=value, switches, short aliases and repeatable flags', () => {
    expect(parse(['--port', '1', '--api-key=a', '--api-key', 'b', '--quiet', '-h'])).toEqual({
      port: '1',
      'api-key': ['a', 'b'],
      quiet: true,
      help: true,
    });
    // A value may be anything after `=`, and a negative number after a space (its own check judges it).
    expect(parse(['--port=--x', '--api-key', '-1'])).toEqual({ port: '--x', 'api-key': ['-1'] });
    expect(parse(['--port', '1', '--port', '2'])).toEqual({ port: '2' });
  });

  it.each([
    [['--nope'], 'unknown option --nope'],
    [['--nope=1'], 'unknown option --nope'],
    [['-x'], 'unknown option -x'],
    [['--port'], 'option --port needs a value'],
    [['--port', '--quiet'], 'option --port needs a value (write --port=-N for a value starting with -)'],
    [['--quiet=yes'], 'option --quiet takes no value'],
    [['stray'], 'unexpected argument stray'],
    [['--', '--port'], 'unexpected argument --port'],
  ])('refuses %j in one line naming the help', (args, message) => {
    expect(refusal(args)).toBe(`${message} (see tempmon serve --help)`);
  });

  it('reads what node:util parseArgs reads, for any valid command line', () => {
    const arg = fc.oneof(
      fc.tuple(fc.constantFrom('--port', '--api-key'), fc.stringMatching(/^[a-z0-9.:]{1,8}$/)).map(([flag, value]) => [flag, value]),
      fc.tuple(fc.constantFrom('--port', '--api-key'), fc.string({ maxLength: 8 })).map(([flag, value]) => [`${flag}=${value}`]),
      fc.constantFrom(['--quiet'], ['-h'], ['--help']),
    );
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 8 }), (parts) => {
        const args = parts.flat();
        const { values } = parseArgs({
          args,
          strict: true,
          allowPositionals: false,
          options: {
            port: { type: 'string' },
            'api-key': { type: 'string', multiple: true },
            quiet: { type: 'boolean' },
            help: { type: 'boolean', short: 'h' },
          },
        });
        expect(parse(args)).toEqual({ ...values });
      }),
    );
  });
});
