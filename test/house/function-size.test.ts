// The kit's rule on size: no function in src/contract over 60 lines, by Biome's own measure
// (complexity/noExcessiveLinesPerFunction in biome.json), which `npm test` runs through `npm run lint`. Here:
// the rule is on, and it applies where it should and nowhere else.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIOME = join(ROOT, 'node_modules/.bin/biome');

/** A function whose body holds `lines` statements, one a line. */
const functionOf = (lines: number) =>
  `export function long(): number {\n  const values: number[] = [];\n${'  values.push(1);\n'.repeat(lines - 2)}  return values.length;\n}\n`;

/** Biome's lint, with the project's biome.json, of `text` as the file at `path`: its exit code and what it said. */
function lintAs(path: string, text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'function-size-'));
  try {
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    // No git in the copy: the VCS settings, which only read .gitignore, stay off.
    const result = spawnSync(BIOME, ['lint', '--vcs-enabled=false', path], { cwd: dir, encoding: 'utf8' });
    return { status: result.status, said: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('no function in src/contract over 60 lines', () => {
  it('fails a function of 61 lines there, naming the rule', () => {
    const { status, said } = lintAs('src/contract/run/long.ts', functionOf(61));
    expect(status).not.toBe(0);
    expect(said).toContain('noExcessiveLinesPerFunction');
  });

  it('passes one of 60 lines there, and one of 61 outside src/contract', () => {
    expect(lintAs('src/contract/run/long.ts', functionOf(60)).status).toBe(0);
    expect(lintAs('src/server/long.ts', functionOf(61)).status).toBe(0);
  });
});
