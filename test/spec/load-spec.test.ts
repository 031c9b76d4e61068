import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecError, loadSpec } from '../../src/spec/load-spec.ts';

const dir = mkdtempSync(join(tmpdir(), 'tempmon-spec-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('loadSpec', () => {
  it("loads the kit spec as OpenAPI 3.1 with our listings and the mock's probes", () => {
    const { document, source } = loadSpec();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths ?? {})).toEqual(expect.arrayContaining(['/alert', '/sensor', '/healthz', '/readyz']));
    expect(source).toContain('operationId: listAlerts');
  });

  it('names the file when it cannot be read', () => {
    expect(() => loadSpec(join(dir, 'missing.yaml'))).toThrow(SpecError);
    expect(() => loadSpec(join(dir, 'missing.yaml'))).toThrow(/missing\.yaml.*no such file or directory/);
  });

  it('refuses text that is not YAML', () => {
    expect(() => loadSpec(file('bad.yaml', 'a: [\n'))).toThrow(/not valid YAML/);
  });

  it('refuses a document that is not OpenAPI 3.1', () => {
    expect(() => loadSpec(file('v3.yaml', 'openapi: 3.0.3\npaths: {}\n'))).toThrow(/not an OpenAPI 3\.1/);
    expect(() => loadSpec(file('list.json', '[1, 2]'))).toThrow(/not an OpenAPI 3\.1/);
  });
});
