// `tempmon contract`'s flags come from one table (src/contract/contract-flags.ts): its parser, its help and
// runContract's defaults. These tests walk the table, so a flag added there is held to all three.
import { describe, expect, it, vi } from 'vitest';
import { CONTRACT_HELP, contractCommand } from '../../src/cli/contract.ts';
import { CONTRACT_DEFAULTS, CONTRACT_FLAGS, type ContractFlag } from '../../src/contract/options/contract-flags.ts';
import { closedTarget } from '../closed-target.ts';

const FLAGS: readonly ContractFlag[] = CONTRACT_FLAGS;
const DOWN = closedTarget();

describe("tempmon contract's flag table", () => {
  it('shows every flag once in the help, with its value and its default in the flag unit', () => {
    for (const flag of FLAGS) {
      const lines = CONTRACT_HELP.split('\n').filter((line) => line.includes(`--${flag.name} `) || line.endsWith(`--${flag.name}`));
      const own = lines.filter((line) => new RegExp(`^ {2}(-\\w, )?--${flag.name}\\b`).test(line));
      expect(own, flag.name).toHaveLength(1);
      if (flag.value) expect(own[0]).toContain(`--${flag.name} ${flag.value}`);
      if (flag.default !== undefined) expect(own[0]).toContain(`(default ${flag.default / (flag.scale ?? 1)}`);
    }
  });

  it.each(FLAGS.filter((flag) => flag.integer).map((flag) => [flag.name, flag] as const))(
    '--%s is parsed from the table: refused past its bounds in the same words',
    async (name, flag) => {
      vi.stubEnv('TEMPMON_API_KEY', 'k');
      const past = String(flag.integer!.max + 1);
      const lines: string[] = [];
      expect(await contractCommand(['--target', DOWN, `--${name}`, past], (line) => lines.push(line))).toBe(2);
      expect(lines).toEqual([
        `COULD NOT RUN: --${name} must be an integer from ${flag.integer!.min} to ${flag.integer!.max}, got "${past}"`,
      ]);
    },
  );

  it("gives runContract's defaults: each flag's default under its option, and the body cap", () => {
    const fromFlags = Object.fromEntries(FLAGS.filter((f) => f.default !== undefined).map((f) => [f.option, f.default]));
    expect(CONTRACT_DEFAULTS).toEqual({ ...fromFlags, maxBodyBytes: 16 * 1024 * 1024 });
    expect(CONTRACT_DEFAULTS).toMatchObject({ examples: 50, maxRetries: 2, maxDurationMs: 300_000, concurrency: 8 });
  });
});
