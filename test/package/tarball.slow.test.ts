// The package as a user gets it: `npm pack`, then a fresh project installs the tarball from disk (its
// dependencies from the registry), runs the CLI through npx, type-checks a consumer under TypeScript 5.9
// and 7 with a minimal tsconfig and no @types/node, and runs it. Slow (two npm installs): the slow suite.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, createMock, nodeListener } from '../../src/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; engines: { node: string } };
// semver comes with npm's own dependency tree here; it has no types of its own.
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

const MINIMAL_TSCONFIG = {
  compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true },
};

/** What a user writes: the entry's main functions (loadDataFile with only a path) and the spec's types. */
const CONSUMER = `import { createApp, DEFAULT_API_KEY, loadDataFile, type Alert } from 'tempmon-kit';
import type { components, paths } from 'tempmon-kit/types';

type Listed = paths['/alert']['get']['responses'][200]['content']['application/json'];
const headers = { 'x-api-key': DEFAULT_API_KEY };

const data = loadDataFile('data.json');
const fromFile = await createApp({ data }).request('/alert', { headers });
const records: Listed = await fromFile.json();
const first: components['schemas']['Alert'] | undefined = records[0];
const alert: Alert | undefined = first;

const fallback = await createApp().request('/alert?pageSize=2', { headers: { 'x-api-key': 'tempmon-dev-key' } });
console.log(JSON.stringify({ status: fromFile.status, count: records.length, id: alert?.id, total: fromFile.headers.get('x-total-count'), fallback: fallback.status }));
`;

/** Type-level checks, never run: the entry's types are real types, not \`any\` from an unresolved import. */
const ASSERTIONS = `import { createApp, createMock, loadDataFile, nodeListener, runContract, ALL_CHECKS, REFERENCE_DATE } from 'tempmon-kit';

// @ts-expect-error the path is required
loadDataFile();
// @ts-expect-error not an option of createApp
createApp({ port: 4010 });
// @ts-expect-error nodeListener takes a mock (createMock), not an app
nodeListener(createApp());
// @ts-expect-error runContract needs a target and a document
void runContract({});
const names: readonly string[] = ALL_CHECKS.map((check) => check.name);
const listener = nodeListener(createMock());
const when: Date = REFERENCE_DATE;
export { names, listener, when };
`;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// npm run sets variables describing the repo's own package; the nested installs must not see them.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^npm_(package_|lifecycle_|config_(local_prefix|prefix|global)$)/i.test(name) && name !== 'INIT_CWD',
  ),
);

function run(command: string, args: readonly string[], cwd: string, extraEnv: Readonly<Record<string, string>> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs and expects exit 0, showing the output when it is not. */
async function ok(command: string, args: readonly string[], cwd: string): Promise<Run> {
  const result = await run(command, args, cwd);
  expect(result.code, `${command} ${args.join(' ')} in ${cwd}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

const NPM_FLAGS = ['--no-audit', '--no-fund'];
let dir: string;
let consumer: string;
let tarball: string;
/** What `npm pack --json` says of the tarball. */
interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly files: readonly { readonly path: string }[];
}
let packed: Packed;
let install: Run;
let tsc59: string;
let tsc7: string;

describe('the npm tarball', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempmon-tarball-'));
    // Without `prepare`: it would rebuild dist/ in place while other slow files (wrangler bundling it, the CLI)
    // read it. test/global-setup.ts has already built dist/ from the current sources, so the tarball is as fresh.
    const pack = await ok('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], root);
    [packed] = JSON.parse(pack.stdout) as [Packed];
    tarball = join(dir, packed.filename);

    consumer = join(dir, 'consumer');
    const ts7 = join(dir, 'ts7');
    mkdirSync(consumer);
    mkdirSync(ts7);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'tempmon-consumer', private: true, type: 'module' }));
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(MINIMAL_TSCONFIG));
    // TypeScript 5 includes every installed @types package; this variant includes none, as TypeScript 7 does by default.
    writeFileSync(join(consumer, 'tsconfig.no-types.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { types: [] } }));
    writeFileSync(join(consumer, 'consumer.ts'), CONSUMER);
    writeFileSync(join(consumer, 'assertions.ts'), ASSERTIONS);
    writeFileSync(join(ts7, 'package.json'), JSON.stringify({ name: 'ts7', private: true }));

    // TypeScript 7 in a project of its own: it checks the consumer's files with the consumer's node_modules.
    [install] = await Promise.all([
      ok('npm', ['install', tarball, 'typescript@5.9', ...NPM_FLAGS], consumer),
      ok('npm', ['install', 'typescript@7', ...NPM_FLAGS], ts7),
    ]);
    tsc59 = join(consumer, 'node_modules/.bin/tsc');
    tsc7 = join(ts7, 'node_modules/.bin/tsc');
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is lean, licensed and publishable', () => {
    const paths = packed.files.map((file) => file.path);
    for (const needed of [
      'package.json',
      'LICENSE',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/openapi.json',
      'spec/openapi.yaml',
      'src/types/openapi.ts',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    const unwanted = paths.filter((path) =>
      /^(test|\.tmp|\.ci|fixtures|node_modules|coverage)\/|(^|\/)\.git|\.test\.|^tsconfig|^vitest/.test(path),
    );
    expect(unwanted).toEqual([]);
    expect(packed.size).toBeLessThan(1_000_000);

    const installed = join(consumer, 'node_modules', pkg.name);
    const license = readFileSync(join(installed, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License/);
    expect(license).toContain('Copyright (c) 2026 the tempmon-kit authors');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { private?: boolean; license?: string };
    expect(manifest.private ?? false).toBe(false);
    expect(manifest.license).toBe('MIT');
  });

  it('installs without an engine warning on a Node that satisfies engines, and warns on one that does not', () => {
    const warnings = install.stderr.split('\n').filter((line) => line.includes('EBADENGINE'));
    if (semver.satisfies(process.version, pkg.engines.node)) {
      expect(warnings, `Node ${process.version} satisfies ${pkg.engines.node}`).toEqual([]);
    } else {
      expect(install.stderr, `Node ${process.version} is outside ${pkg.engines.node}`).toMatch(
        new RegExp(`EBADENGINE[\\s\\S]*${pkg.name}@${pkg.version.replaceAll('.', '\\.')}`),
      );
    }
  });

  it('runs the CLI through npx', async () => {
    const help = await ok('npx', ['--no', '--', 'tempmon', '--help'], consumer);
    expect(help.stdout).toContain('Usage: tempmon <command>');
    if (help.stdout.includes('--version')) {
      expect((await ok('npx', ['--no', '--', 'tempmon', '--version'], consumer)).stdout.trim()).toBe(pkg.version);
    }

    const fixtures = await ok('npx', ['--no', '--', 'tempmon', 'fixtures', '--alerts', '3', '--sensors', '2'], consumer);
    const data = JSON.parse(fixtures.stdout) as { alerts: unknown[]; sensors: unknown[] };
    expect([data.alerts.length, data.sensors.length]).toEqual([3, 2]);
    // The consumer below serves this file.
    writeFileSync(join(consumer, 'data.json'), fixtures.stdout);
  }, 120_000);

  it('type-checks a consumer with TypeScript 5.9 and 7, a minimal tsconfig and no @types/node', async () => {
    expect((await ok(tsc59, ['--version'], consumer)).stdout).toMatch(/^Version 5\.9\./);
    expect((await ok(tsc7, ['--version'], consumer)).stdout).toMatch(/^Version 7\./);

    // As installed (our dependency tree brings @types/node along, which TypeScript 5 includes by default).
    await ok(tsc59, ['-p', consumer], consumer);
    const files = (await ok(tsc7, ['-p', consumer, '--listFiles'], consumer)).stdout.split('\n');
    // Nothing the entry's declarations reach needs node's types (nor undici's, which need them, nor faker's).
    expect(files.filter((file) => /node_modules\/(@types\/node|undici|undici-types|@hono\/node-server|@faker-js)\//.test(file))).toEqual(
      [],
    );
    expect(files.some((file) => file.endsWith(`node_modules/${pkg.name}/dist/index.d.ts`))).toBe(true);

    // Without @types/node at all.
    const typesNode = join(consumer, 'node_modules/@types/node');
    const aside = join(dir, 'types-node-aside');
    if (existsSync(typesNode)) renameSync(typesNode, aside);
    try {
      await ok(tsc7, ['-p', consumer], consumer);
      await ok(tsc59, ['-p', join(consumer, 'tsconfig.no-types.json')], consumer);
    } finally {
      if (existsSync(aside)) renameSync(aside, typesNode);
    }
  }, 300_000);

  it('runs the consumer: loadDataFile(path) and createApp answer 200', async () => {
    expect(existsSync(join(consumer, 'data.json')), 'data.json from the CLI test').toBe(true);
    await ok(tsc59, ['-p', consumer, '--noEmit', 'false', '--outDir', 'out'], consumer);
    const result = await ok(process.execPath, ['out/consumer.js'], consumer);
    const fixture = JSON.parse(readFileSync(join(consumer, 'data.json'), 'utf8')) as { alerts: { id: string; created_at: string }[] };
    const newest = [...fixture.alerts].sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id))[0]!;
    expect(JSON.parse(result.stdout)).toEqual({ status: 200, count: 3, id: newest.id, total: '3', fallback: 200 });
  }, 120_000);

  it("follows the README's CI recipe as written: the kit alone installed (at most 150 MB), a conformant run, its reports", async () => {
    // The recipe's `run:` lines, from the README itself, run in an empty folder with its env (the tarball for KIT,
    // a mock served here for TARGET, its key).
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const recipe = /### In CI[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
    const commands = [...recipe.matchAll(/^ {4}- run: (.+)$/gm)].map((m) => m[1]!);
    expect(commands).toHaveLength(2);
    expect(recipe).toMatch(/^ {4}KIT: https:\/\/\S+\.tgz$/m);
    const job = join(dir, 'ci-job');
    mkdirSync(job);
    const server = createServer(nodeListener(createMock(), undefined));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const jobEnv = { KIT: tarball, TARGET: `http://127.0.0.1:${port}`, TEMPMON_API_KEY: DEFAULT_API_KEY };
    try {
      for (const command of commands) {
        const result = await run('sh', ['-c', command], job, jobEnv);
        expect(result.code, `${command}\n${result.stdout}\n${result.stderr}`).toBe(0);
        if (command.includes('contract')) expect(result.stdout.trim().split('\n').at(-1)).toBe('conformant');
      }
    } finally {
      server.close();
    }
    for (const report of ['contract.xml', 'contract.json', 'contract.har']) expect(existsSync(join(job, report)), report).toBe(true);
    const megabytes = Number((await ok('du', ['-sm', 'node_modules'], job)).stdout.split('\t')[0]);
    console.log(`the README's CI recipe: node_modules ${megabytes} MB`);
    expect(megabytes).toBeLessThanOrEqual(150);
  }, 300_000);
});
