// The built CLI (dist/, made by `npm run build`, which `npm ci` and `npm test` run) is the one the
// package's bin and `npm start` use.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('the built CLI', () => {
  it('is the package bin and runs', () => {
    expect(pkg.bin.tempmon).toBe('dist/cli/main.js');
    expect(existsSync(MAIN), 'run `npm run build` first').toBe(true);
    expect(readFileSync(MAIN, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const result = spawnSync(process.execPath, [MAIN, 'fixtures', '--alerts', '1', '--sensors', '0', '--seed', '4'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    const source = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'fixtures', '--alerts', '1', '--sensors', '0', '--seed', '4'], { encoding: 'utf8' });
    expect(result.stdout).toBe(source.stdout);
  });
});
