// The house's one rule, read from the README's Layout: a folder under src/ imports only from folders listed
// above it. The README and the code cannot drift apart: a folder missing from the list fails here too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const SOURCE = /\.(ts|mts|mjs)$/;

/** The Layout block's entries under src/, in order: folders (`src/http/`) and root files (`src/index.ts`). */
function layoutOrder(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Layout\n'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return [...block.matchAll(/^src\/(\S+)/gm)].map((m) => m[1]!.replace(/\/$/, ''));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

/** The part of the Layout a file under src/ belongs to: its top folder, or its own name at the root. */
const partOf = (file: string) => relative(SRC, file).split('/')[0]!;

/** Every module a file imports (static, dynamic, re-exports, `import type`), as written. */
const specifiersOf = (file: string) => ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);

/** Every relative import of a file, resolved to a path. */
const importsOf = (file: string) =>
  specifiersOf(file)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name));

/** Imports that go against the order: `from -> to` with the part imported listed after the importer's. */
function wrongWayImports(order: readonly string[], files: readonly string[]): string[] {
  const rank = new Map(order.map((part, i) => [part, i]));
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith(`${SRC}/`))
      .filter((target) => partOf(target) !== partOf(file) && (rank.get(partOf(target)) ?? -1) > (rank.get(partOf(file)) ?? -1))
      .map((target) => `${relative(ROOT, file)} -> ${relative(ROOT, target)}`),
  );
}

describe('the layout (README) and the import graph agree', () => {
  const order = layoutOrder();
  const files = sourceFiles(SRC);

  it('lists every folder and root file under src/, each once, and nothing that is not there', () => {
    const parts = [...new Set(files.map(partOf))].sort();
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
    expect(reversed).toContain('src/proxy/create-proxy.ts -> src/contract/model/prism.ts');
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
