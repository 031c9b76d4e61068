// The container image (Dockerfile, also found as Containerfile), built with podman and run as a user runs it:
// the mock served with a key from the env, the kit run from a second container against it, the signals, the user,
// a read-only root, the exit codes. No registry is reachable here, so the base is built here (see podman.ts) and
// passed as BASE. CI installs podman, runc and mmdebstrap (.ci/run); on a machine without them this file is
// skipped with a warning saying how to enable it, except under CI=true where that fails.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/index.ts';
import { parse } from 'yaml';
import { baseImage, podmanHere, type Podman, type Ran, run, scratchFolder } from './podman.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const TOOLS = ['podman', 'runc', 'mmdebstrap'];
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const INSTALL = `apt-get install -y ${TOOLS.join(' ')}`;
if (missing.length > 0 && process.env.CI) throw new Error(`${missing.join(', ')} missing: .ci/run must install them (${INSTALL})`);
if (missing.length > 0) {
  console.warn(
    [
      '',
      `SKIPPED: the container image (test/container/image.slow.test.ts): ${missing.join(', ')} missing.`,
      `  To run it: ${INSTALL}   (CI installs them; under CI=true a missing podman fails the run)`,
      '',
    ].join('\n'),
  );
}

/** A key of the test's own, given to containers by name only (`-e TEMPMON_API_KEY`), never on a command line. */
const SECRET = 'container-key-7f3a9c1e5b';
const KEY_ENV = { TEMPMON_API_KEY: SECRET };
/** The key of a mock started without TEMPMON_API_KEY. */
const DEV_KEY = DEFAULT_API_KEY;
const SOURCE = 'https://example.invalid/tempmon-kit';
const IMAGE = `localhost/tempmon-kit:test-${process.pid}`;
/** The name docs/container.md's CI step runs. */
const DOCUMENTED_IMAGE = 'localhost/tempmon-kit:latest';

let podman: Podman;
let scratch: ReturnType<typeof scratchFolder>;
/** The mock's container, its address on this machine, and what building took. */
let mock: string;
let origin: string;
let built: Ran;
const containers: string[] = [];

/** Starts a detached container of the image with the mock's port published on a free port of 127.0.0.1. */
async function start(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<{ id: string; origin: string }> {
  const envFlags = Object.keys(env).flatMap((name) => ['-e', name]);
  const started = await podman.run(
    ['run', '-d', '--read-only', '--read-only-tmpfs=false', '-p', '127.0.0.1::4010', ...envFlags, ...args],
    env,
  );
  expect(started.code, started.stderr).toBe(0);
  const id = started.stdout.trim();
  containers.push(id);
  const port = (await podman.ok(['port', id, '4010'])).stdout.trim();
  return { id, origin: `http://${port}` };
}

/**
 * The first 200 of GET `path` (a page of alerts) with `key` (SECRET, unless the mock was started without it), polled;
 * its time from `since`.
 */
async function firstOk(at: string, since = performance.now(), key = SECRET, path = '/alert?pageSize=1'): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(`${at}${path}`, { headers: { 'x-api-key': key } });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > 60_000) throw new Error(`no 200 from ${at} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The lines of a container's stderr, without podman's own log lines (it logs that it has no systemd for health checks). */
const ours = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((line) => !/^time="[^"]*" level=/.test(line));

/** A field of a container. */
const inspect = async (format: string, container: string) =>
  (await podman.ok(['container', 'inspect', '--format', format, container])).stdout.trim();

/** What the test reads of `podman image inspect`. */
interface ImageInspection {
  readonly Labels: Record<string, string>;
  readonly Size: number;
  readonly Config: { readonly User: string; readonly Entrypoint: string[]; readonly Cmd: string[] };
  readonly Healthcheck: { readonly Test: string[] };
}

describe.skipIf(missing.length > 0)(
  `the container image${missing.length ? ` (skipped: no ${missing.join(', ')}; to run it: ${INSTALL})` : ''}`,
  () => {
    beforeAll(async () => {
      scratch = scratchFolder();
      podman = podmanHere();
      const base = await baseImage(podman, scratch.path);
      console.log(`container base ${base.image}: ${base.built ? 'built' : 'from the cache'}, ready in ${(base.ms / 1000).toFixed(1)} s`);
      // --format docker: the OCI format has no HEALTHCHECK.
      const args = ['build', '--format', 'docker', '--build-arg', `BASE=${base.image}`, '--build-arg', `SOURCE=${SOURCE}`];
      built = await podman.run([...args, '-t', IMAGE, '-f', join(root, 'Containerfile'), root]);
      expect(built.code, `${built.stdout}\n${built.stderr}`).toBe(0);
      console.log(`container image built in ${(built.ms / 1000).toFixed(1)} s`);
      // Images of earlier runs' sources, untagged since, older than a day: the layer cache of recent builds stays.
      await podman.run(['image', 'prune', '-f', '--filter', 'until=24h']);
      ({ id: mock, origin } = await start([IMAGE], KEY_ENV));
      await firstOk(origin);
    }, 1_200_000);

    afterAll(async () => {
      if (podman) {
        for (const id of containers) await podman.run(['rm', '-f', '-t', '0', id]);
        await podman.run(['rmi', '-f', IMAGE, DOCUMENTED_IMAGE]);
      }
      scratch?.remove();
    }, 120_000);

    it('is the user install on the base: labelled, a non-root user, the CLI as entrypoint, a health check without curl', async () => {
      const [image] = JSON.parse((await podman.ok(['image', 'inspect', IMAGE])).stdout) as [ImageInspection];
      expect(image.Labels).toMatchObject({
        'org.opencontainers.image.version': pkg.version,
        'org.opencontainers.image.licenses': 'MIT',
        'org.opencontainers.image.source': SOURCE,
      });
      expect(image.Config.User).toMatch(/^[1-9]\d*(:\d+)?$/);
      expect(image.Config.Entrypoint).toEqual(['node', '/opt/tempmon/dist/cli/main.js']);
      expect(image.Config.Cmd).toEqual(['serve']);
      expect(image.Healthcheck.Test.join(' ')).toMatch(/^CMD node -e .*\/readyz/);
      // What the last stage holds of ours: the package's files and its runtime dependencies, no dev tools or tests.
      const listing = await podman.ok([
        'run',
        '--rm',
        '--entrypoint',
        'sh',
        IMAGE,
        '-c',
        'du -sm /opt/tempmon; ls /opt/tempmon /opt/tempmon/node_modules',
      ]);
      const megabytes = Number(listing.stdout.split('\t')[0]);
      const size = image.Size;
      console.log(`container image: ${(size / 1e6).toFixed(0)} MB, of which /opt/tempmon ${megabytes} MB`);
      expect(megabytes).toBeLessThanOrEqual(150);
      const names = listing.stdout.split('\n');
      for (const name of ['dist', 'spec', 'package.json', 'hono', '@faker-js']) expect(names, name).toContain(name);
      for (const name of ['test', 'typescript', 'vitest', '@biomejs', 'toolchains']) expect(names, name).not.toContain(name);
    });

    it('serves /alert and /sensor with the key from TEMPMON_API_KEY, 401 without; healthy on /readyz; as a non-root user', async () => {
      for (const listing of ['alert', 'sensor']) {
        const answer = await fetch(`${origin}/${listing}?pageSize=3`, { headers: { 'x-api-key': SECRET } });
        expect(answer.status, listing).toBe(200);
        expect(await answer.json()).toHaveLength(3);
        const refused = await fetch(`${origin}/${listing}`);
        expect(refused.status, listing).toBe(401);
        expect((await fetch(`${origin}/${listing}`, { headers: { 'x-api-key': DEV_KEY } })).status).toBe(401);
      }
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      // The image's HEALTHCHECK itself (podman runs it on demand: there is no systemd timer here).
      const health = await podman.run(['healthcheck', 'run', mock]);
      expect(health.code, `${health.stdout}${health.stderr}`).toBe(0);
      expect((await podman.ok(['exec', mock, 'id', '-u'])).stdout.trim()).not.toBe('0');
      // --read-only (and no tmpfs): nothing can be written, and the mock above served all the same.
      expect((await podman.run(['exec', mock, 'sh', '-c', 'touch /tmp/x || touch /opt/tempmon/x'])).code).not.toBe(0);
      const logs = await podman.ok(['logs', mock]);
      expect(logs.stdout).toMatch(/GET \/alert\?pageSize=3 200/);
      expect(`${logs.stdout}${logs.stderr}`).not.toContain(SECRET);
    });

    it('takes options as variables and as arguments, and a bad one exits 2 with its one-line message', async () => {
      const seeded = await start(['-e', 'TEMPMON_SEED=7', '-e', 'TEMPMON_ALERTS=12', IMAGE, 'serve', '--sensors', '4']);
      await firstOk(seeded.origin, undefined, DEV_KEY);
      const key = { 'x-api-key': DEV_KEY };
      expect((await fetch(`${seeded.origin}/alert`, { headers: key })).headers.get('x-total-count')).toBe('12');
      expect((await fetch(`${seeded.origin}/sensor`, { headers: key })).headers.get('x-total-count')).toBe('4');
      const bad = await podman.run(['run', '--rm', IMAGE, 'serve', '--port', 'eighty']);
      expect(bad.code).toBe(2);
      expect(ours(bad.stderr)).toEqual([expect.stringMatching(/^tempmon: --port must be/)]);
      const badVariable = await podman.run(['run', '--rm', '-e', 'TEMPMON_SEED=-1', IMAGE]);
      expect(badVariable.code).toBe(2);
      expect(ours(badVariable.stderr)).toEqual([expect.stringMatching(/^tempmon: --seed must be/)]);
    });

    it("runs the kit from a second container against the first, as docs/container.md's CI step does: conformant, reports in a mounted folder", async () => {
      const doc = readFileSync(join(root, 'docs/container.md'), 'utf8');
      const step = /## For CI[\s\S]*?```yaml\n[\s\S]*?^ {4}- run: (docker run .+)$/m.exec(doc)![1]!;
      expect(step).toMatch(/-v "\$PWD\/reports:\/reports"[\s\S]*--junit \/reports\/\S+ --har \/reports\/\S+$/);
      const job = join(scratch.path, 'ci-job');
      mkdirSync(join(job, 'reports'), { recursive: true });
      // The image's user is not this machine's: the job's folder must be writable by the user the step runs as.
      chmodSync(join(job, 'reports'), 0o777);
      // The step as written, docker being podman with the test's settings and the image tagged as the step names it.
      await podman.ok(['tag', IMAGE, DOCUMENTED_IMAGE]);
      const ip = await inspect('{{.NetworkSettings.IPAddress}}', mock);
      const script = `cd "${job}" && docker() { podman ${podman.global.join(' ')} "$@"; } && ${step}`;
      const kit = await run('sh', ['-c', script], { ...podman.env, ...KEY_ENV, TARGET: `http://${ip}:4010` });
      const verdict = kit.stdout.trim().split('\n').at(-1);
      console.log(`the kit from the image against the mock's container: ${(kit.ms / 1000).toFixed(1)} s, ${verdict}`);
      expect(kit.code, `${kit.stdout}\n${kit.stderr}`).toBe(0);
      expect(verdict).toBe('conformant');
      const junit = readFileSync(join(job, 'reports/contract.xml'), 'utf8');
      expect(junit).toContain('<testsuites');
      const har = JSON.parse(readFileSync(join(job, 'reports/contract.har'), 'utf8')) as { log: { entries: unknown[] } };
      expect(har.log.entries.length).toBeGreaterThan(100);
      for (const text of [kit.stdout, kit.stderr, junit, JSON.stringify(har)]) expect(text).not.toContain(SECRET);
    }, 300_000);

    it("serves live data of a fixed seed with docs/container.md's compose environment, healthy", async () => {
      const doc = readFileSync(join(root, 'docs/container.md'), 'utf8');
      const compose = parse(/```yaml\n(# compose\.yaml[\s\S]*?)```/.exec(doc)![1]!) as {
        services: { api: { image: string; environment: Record<string, string> } };
      };
      const { environment } = compose.services.api;
      expect(environment).toMatchObject({ TEMPMON_LIVE: '1', TEMPMON_SEED: expect.any(String) });
      const served = await start([IMAGE], environment);
      await firstOk(served.origin, undefined, DEV_KEY);
      const page = await fetch(`${served.origin}/alert?pageSize=1`, { headers: { 'x-api-key': DEV_KEY } });
      expect(page.status).toBe(200);
      expect(page.headers.get('tempmon-moment')).toMatch(/^\d{4}-/);
      expect((await podman.ok(['logs', served.id])).stdout).toContain(`seed ${environment.TEMPMON_SEED}`);
      expect((await podman.run(['healthcheck', 'run', served.id])).code).toBe(0);
    });

    it('exits 1 when the kit finds the target does not conform, through the container', async () => {
      // A 500 or 503 to every listing request: the kit cannot say the target conforms.
      const failing = await start([IMAGE, 'serve', '--error-rate', '1']);
      await firstOk(failing.origin, undefined, DEV_KEY, '/readyz');
      const args = ['run', '--rm', '--network', `container:${failing.id}`, IMAGE, 'contract', '--target', 'http://127.0.0.1:4010'];
      const kit = await podman.run([...args, '--api-key', DEV_KEY, '--max-duration', '60']);
      expect(kit.code, `${kit.stdout}\n${kit.stderr}`).toBe(1);
    }, 300_000);

    it('stops within 2 s with exit code 0 on SIGTERM (podman stop) and on SIGINT, node being PID 1', async () => {
      expect((await podman.ok(['exec', mock, 'cat', '/proc/1/cmdline'])).stdout).toMatch(/^node\0/);
      // A client holding an idle keep-alive connection, as a browser or a health checker does.
      await fetch(`${origin}/healthz`);
      const stop = await podman.run(['stop', '-t', '10', mock]);
      expect(stop.code, stop.stderr).toBe(0);
      console.log(`podman stop (SIGTERM) took ${stop.ms.toFixed(0)} ms`);
      expect(stop.ms).toBeLessThan(2_000);
      expect(await inspect('{{.State.ExitCode}}', mock)).toBe('0');

      const other = await start([IMAGE]);
      await firstOk(other.origin, undefined, DEV_KEY);
      await podman.ok(['kill', '--signal', 'INT', other.id]);
      const waited = await podman.run(['wait', other.id]);
      expect(waited.ms).toBeLessThan(2_000);
      expect(waited.stdout.trim()).toBe('0');
    });

    it('answers its first 200 soon after podman run (median of 5)', async () => {
      const times: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const since = performance.now();
        const { id, origin: at } = await start([IMAGE], KEY_ENV);
        times.push(await firstOk(at, since));
        await podman.run(['rm', '-f', '-t', '0', id]);
      }
      const median = [...times].sort((a, b) => a - b)[2]!;
      console.log(`podman run to the first 200: ${times.map((ms) => ms.toFixed(0)).join(', ')} ms, median ${median.toFixed(0)} ms`);
      expect(median).toBeLessThan(30_000);
    });
  },
);
