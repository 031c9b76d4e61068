// The built CLI (dist/, made by `npm run build`, which `npm ci` and `npm test` run) is the one the
// package's bin and `npm start` use, and the one the CLI tests start.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/fixtures/generate-dataset.ts';
import { serializeDataset } from '../../src/fixtures/serialize-dataset.ts';
import { spec } from '../helpers.ts';
import { MAIN, runCli } from './cli-helpers.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('the built CLI', () => {
  it('is the package bin and prints fixtures to stdout: the bytes the library makes', async () => {
    expect(pkg.bin.tempmon).toBe('dist/cli/main.js');
    expect(MAIN.endsWith(pkg.bin.tempmon)).toBe(true);
    expect(readFileSync(MAIN, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const result = await runCli(['fixtures', '--seed', '9', '--alerts', '3', '--sensors', '2']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).alerts).toHaveLength(3);
    expect(result.stdout).toBe(serializeDataset(generateDataset(spec.document, { seed: 9, counts: { alerts: 3, sensors: 2 } })));
  });
});
