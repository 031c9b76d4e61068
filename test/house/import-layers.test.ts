// The house's one rule, read from CONTRIBUTING.md's Layout: a folder under src/ imports only from folders listed
// above it. The README and the code cannot drift apart: a folder missing from the list fails here too. The
// same rule holds inside src/contract, read from docs/contract.md's "The kit's house".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const SOURCE = /\.(ts|mts|mjs)$/;

/**
 * The entries under `dir` of the first code block after `heading` in `doc`, in order: folders (`src/http/`) and
 * root files (`src/index.ts`).
 */
function layoutOrder(doc = 'CONTRIBUTING.md', heading = '## Layout', dir = 'src'): string[] {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const section = text.slice(text.indexOf(`\n${heading}\n`));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return [...block.matchAll(new RegExp(`^${dir}/(\\S+)`, 'gm'))].map((m) => m[1]!.replace(/\/$/, ''));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

/** The part of the Layout a file under `root` belongs to: its top folder, or its own name at the root. */
const partOf = (file: string, root = SRC) => relative(root, file).split('/')[0]!;

/** Every module a file imports (static, dynamic, re-exports, `import type`), as written. */
const specifiersOf = (file: string) => ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);

/** Every relative import of a file, resolved to a path. */
const importsOf = (file: string) =>
  specifiersOf(file)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name));

/** Imports that go against the order: `from -> to` with the part imported listed after the importer's. */
function wrongWayImports(order: readonly string[], files: readonly string[], root = SRC): string[] {
  const rank = new Map(order.map((part, i) => [part, i]));
  const part = (file: string) => partOf(file, root);
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith(`${root}/`))
      .filter((target) => part(target) !== part(file) && (rank.get(part(target)) ?? -1) > (rank.get(part(file)) ?? -1))
      .map((target) => `${relative(ROOT, file)} -> ${relative(ROOT, target)}`),
  );
}

describe('the layout (CONTRIBUTING.md) and the import graph agree', () => {
  const order = layoutOrder();
  const files = sourceFiles(SRC);

  it('lists every folder and root file under src/, each once, and nothing that is not there', () => {
    const parts = [...new Set(files.map((file) => partOf(file)))].sort();
    expect([...order].sort()).toEqual(parts);
    expect(new Set(order).size).toBe(order.length);
  });

  it('has no import from a folder to one listed after it: nothing runs back up, no two folders import each other', () => {
    expect(wrongWayImports(order, files)).toEqual([]);
  });

  it('would catch one: the rule reads imports of every kind, and a listed-after target is wrong', () => {
    // The same files judged against the order reversed: every import between two parts now runs the wrong way.
    const reversed = wrongWayImports([...order].reverse(), files);
    expect(reversed).toContain('src/cli/serve.ts -> src/server/create-app.ts');
    // A dynamic import, and an import of types only, count as much as a static import.
    expect(reversed).toContain('src/proxy/create-proxy.ts -> src/contract/model/judges.ts');
    expect(reversed).toContain('src/options/scenario-options.ts -> src/server/app-options.ts');
  });

  it('keeps src/options/ free of node: modules, since a Worker bundles it', () => {
    const options = files.filter((file) => partOf(file) === 'options');
    expect(options.length).toBeGreaterThan(0);
    expect(
      options.flatMap((file) =>
        specifiersOf(file)
          .filter((name) => name.startsWith('node:'))
          .map((name) => `${relative(ROOT, file)}: ${name}`),
      ),
    ).toEqual([]);
  });
});

describe("the kit's house (docs/contract.md) and src/contract's import graph agree", () => {
  const root = join(SRC, 'contract');
  const order = layoutOrder('docs/contract.md', "## The kit's house", 'src/contract');
  const files = sourceFiles(root);

  it('lists every folder and root file under src/contract, each once, and nothing that is not there', () => {
    const parts = [...new Set(files.map((file) => partOf(file, root)))].sort();
    expect([...order].sort()).toEqual(parts);
    expect(new Set(order).size).toBe(order.length);
  });

  it('has no import from a folder of the kit to one listed after it: no loop between its folders', () => {
    expect(wrongWayImports(order, files, root)).toEqual([]);
  });

  it('would catch one: the runner imports the checks, the checks the material', () => {
    const reversed = wrongWayImports([...order].reverse(), files, root);
    expect(reversed).toContain('src/contract/run/run-contract.ts -> src/contract/checks/index.ts');
    expect(reversed).toContain('src/contract/checks/search-special-terms.ts -> src/contract/material/hazard-terms.ts');
  });
});
