// The public entry (src/index.ts) as a user calls it: its declared types wrap the internals, so check that
// the wrappers hand node's own objects through and that nothing public went missing.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as entry from '../../src/index.ts';
import { ALL_CHECKS as INTERNAL_CHECKS } from '../../src/contract/checks/index.ts';
import { spec } from '../helpers.ts';

describe('the public entry', () => {
  it('exports the same values as before its types were declared apart', () => {
    expect(Object.keys(entry).sort()).toEqual(
      [
        'ALL_CHECKS',
        'comparePlaces',
        'ContractSetupError',
        'DEFAULT_API_KEY',
        'DEFAULT_DATASET',
        'DEFAULT_SPEC_PATH',
        'DataFileError',
        'REFERENCE_DATE',
        'SpecError',
        'consoleReport',
        'createApp',
        'createMock',
        'createProxy',
        'createRecordFactory',
        'createSchemaValidator',
        'generateDataset',
        'generateRecord',
        'jsonReport',
        'junitReport',
        'listAssumptions',
        'loadDataFile',
        'loadSpec',
        'nodeListener',
        'runContract',
        'serializeDataset',
      ].sort(),
    );
    expect(entry.ALL_CHECKS).toBe(INTERNAL_CHECKS);
    expect(entry.REFERENCE_DATE.toISOString()).toBe('2026-11-01T06:00:00.000Z');
  });

  it('documents every function it exports with TSDoc and an example', () => {
    const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
    const program = ts.createProgram([entry], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);
    const functions = exports
      .map((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol))
      .filter((symbol) => symbol.flags & ts.SymbolFlags.Function);
    expect(functions.length).toBeGreaterThanOrEqual(17);
    const undocumented = functions
      .filter(
        (symbol) =>
          symbol.getDocumentationComment(checker).length === 0 || !symbol.getJsDocTags(checker).some((tag) => tag.name === 'example'),
      )
      .map((symbol) => symbol.name);
    expect(undocumented).toEqual([]);
  }, 60_000);

  it('refuses what is not an OpenAPI document with a TypeError that says what to pass, where it took one', async () => {
    const loaded = entry.loadSpec();
    const wrong = loaded as unknown as Parameters<typeof entry.generateDataset>[0];
    const hint = /takes the OpenAPI document, not what loadSpec\(\) returns: pass loadSpec\(\)\.document/;
    expect(() => entry.generateDataset(wrong, { seed: 7 })).toThrow(hint);
    expect(() => entry.createRecordFactory(wrong, 7)).toThrow(hint);
    expect(() => entry.createSchemaValidator(wrong)).toThrow(hint);
    expect(() => entry.listAssumptions(wrong)).toThrow(hint);
    await expect(entry.runContract({ target: 'http://127.0.0.1:9', document: wrong })).rejects.toThrow(hint);
    expect(() => entry.generateDataset({ paths: {} } as never)).toThrow(/got an object without "openapi" \(keys: paths\)/);
    // The document itself is what they take.
    expect(entry.generateDataset(loaded.document, { seed: 7, counts: { alerts: 2, sensors: 1 } })).toMatchObject({
      alerts: [expect.any(Object), expect.any(Object)],
      sensors: [expect.any(Object)],
    });
  });

  it('serves a mock with node:http through nodeListener (createServer takes it as it is)', async () => {
    const server = createServer(entry.nodeListener(entry.createMock({ spec, dataset: { seed: 3, counts: { alerts: 4, sensors: 2 } } })));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/alert`;
      const response = await fetch(url, { headers: { 'x-api-key': entry.DEFAULT_API_KEY } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBe(4);
      // Twice more: the answer is kept from its second request, and the listener replays it from the third.
      for (const _ of [2, 3])
        expect((await fetch(url, { headers: { 'x-api-key': entry.DEFAULT_API_KEY } })).headers.get('x-total-count')).toBe('4');
    } finally {
      server.close();
    }
  });

  it('creates a proxy that node:http serves through @hono/node-server', async () => {
    const mock = entry.createApp({ spec, dataset: { seed: 3, counts: { alerts: 2, sensors: 2 } } });
    const proxy = await entry.createProxy({ target: 'http://mock.test', spec, fetch: (request) => mock.fetch(request) });
    const { getRequestListener } = await import('@hono/node-server');
    const server = createServer(getRequestListener(proxy.app.fetch));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sensor`, {
        headers: { 'x-api-key': entry.DEFAULT_API_KEY },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBe(2);
      expect(proxy.violations().count).toBe(0);
    } finally {
      server.close();
    }
  });
});
