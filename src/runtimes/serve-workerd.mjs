// `npm run serve:workerd -- --port P`: the mock on workerd, locally, through `wrangler dev` (from
// toolchains/, see runtime-tool.mjs, run by this Node), with the flags of the Bun and Deno entries: --port, --host,
// --seed, a count per listing (--alerts, --sensors), --latency, --error-rate, --rate-limit, --api-key
// (not --data: a Worker has no file system). Offline: no telemetry, no error reports, no fetch of
// Request.cf. Validated here with the Worker's own parser (from dist/, built by the script).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { TOOLCHAINS, requireTool } from '../build/runtime-tool.mjs';

const root = new URL('../..', import.meta.url).pathname;
const { loadSpec } = await import(new URL('../../dist/spec/load-spec.js', import.meta.url).href);
const { flagVariable, serveFlags } = await import(new URL('../../dist/options/serve-options.js', import.meta.url).href);
const { runtimeMock } = await import(new URL('../../dist/options/runtime-options.js', import.meta.url).href);
// A Worker's bound on a collection: what is indexed in the request of its first search (see worker-entry.ts).
const { SYNC_INDEX_LIMIT } = await import(new URL('../../dist/store/generated-store.js', import.meta.url).href);

let settings;
try {
  const spec = loadSpec();
  settings = { spec, mock: runtimeMock(spec, process.env, process.argv.slice(2), SYNC_INDEX_LIMIT) };
} catch (error) {
  console.error(`tempmon: ${error.message}`);
  process.exit(2);
}
const { spec, mock } = settings;
const { port, host, values } = mock;

// Seed, counts and conditions as vars, each from its flag or else its variable (wrangler passes the Worker
// no variable of this process); a key as a secret, in an env file only this user can read (never on a
// command line).
const vars = serveFlags(spec.document)
  .filter((flag) => flag.variable && typeof values[flag.name] === 'string')
  .flatMap((flag) => ['--var', `${flagVariable(flag.name)}:${values[flag.name]}`]);
const keys = mock.options.apiKeys;
if (keys.length > 1) {
  console.error('tempmon: a Worker takes one key (TEMPMON_API_KEY)');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'tempmon-workerd-'));
const envFile = join(dir, '.env');
writeFileSync(envFile, `TEMPMON_API_KEY=${JSON.stringify(keys[0])}\n`, { mode: 0o600 });

// A free port for wrangler's devtools inspector: its default, 9229, would let only one of these mocks run
// at a time (a second one fails with "Address already in use").
const inspectorPort = await new Promise((resolve, reject) => {
  const probe = createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});

// wrangler from the toolchains' folder (`npm run runtimes:install`), run by this Node.
requireTool('wrangler');
const wrangler = join(dirname(createRequire(`${TOOLCHAINS}package.json`).resolve('wrangler/package.json')), 'bin/wrangler.js');
const child = spawn(
  process.execPath,
  [
    wrangler,
    'dev',
    '--ip',
    host,
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--env-file',
    envFile,
    '--show-interactive-dev-session=false',
    ...vars,
  ],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      CLOUDFLARE_TELEMETRY_DISABLED: '1',
    },
  },
);
let announced = false;
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  const ready = announced ? undefined : /Ready on (http:\/\/\S+)/.exec(String(chunk));
  if (ready) {
    announced = true;
    // The port wrangler bound: the one asked for, or the one it picked for --port 0.
    const url = `http://${host}:${new URL(ready[1]).port || port}`;
    console.log(`tempmon mock (workerd, wrangler dev) listening on ${url}`);
    for (const line of mock.banner(url)) console.log(line);
  }
});
const stop = (signal) => child.kill(signal);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code, signal) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
