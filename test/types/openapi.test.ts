import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('src/types/openapi.ts', () => {
  it('is what `npm run types:generate` makes from the current spec', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tempmon-types-')), 'openapi.ts');
    const bin = new URL('../../node_modules/openapi-typescript/bin/cli.js', import.meta.url).pathname;
    execFileSync(process.execPath, [bin, 'spec/openapi.yaml', '-o', out], { stdio: 'ignore' });
    const committed = readFileSync(new URL('../../src/types/openapi.ts', import.meta.url), 'utf8');
    expect(readFileSync(out, 'utf8') === committed, 'stale: run `npm run generate` and commit the result').toBe(true);
  });
});
