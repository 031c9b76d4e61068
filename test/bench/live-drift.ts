// The live drift (issue 41): what each kind of request of the live soak's mix costs the server, minute by
// minute of a live mock's life, in one process on a clock the bench moves. No wrk, no sockets, no other
// job's load between the server and its work: if a fresh search at minute 30 costs more than at minute 2,
// it is the server's doing. Between minutes the clock moves a second at a time and the event loop turns, as
// a server's does between requests (the upkeep builds meanwhile); within a minute's requests it moves 10 ms
// a request (one arrival each at 100/s).
//   BENCH_ONLY=drift npm run bench, or node --import tsx test/bench/live-drift.ts
// BENCH_DRIFT_ALERTS (default 100000), BENCH_DRIFT_MINUTES (default 30), BENCH_DRIFT_REQUESTS (of each kind a
// minute, default 200).
import { pathToFileURL } from 'node:url';
import { parseServeArgs, serveOptions } from '../../src/options/serve-options.ts';
import { createApp, DEFAULT_API_KEY } from '../../src/server/create-app.ts';
import { apiKeyHeaders, listListings } from '../../src/spec/operations.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';

/** The least and latest minutes compared: three each, so one minute's noise does not decide. */
const SPAN = 3;
/** The latest minutes' cost per request of a kind, at most this ratio of the earliest's. */
const STEADY = 1.1;

/** CPU time per request of each kind (µs) in one minute of the clock, and the backlog after it. */
export interface DriftMinute {
  readonly minute: number;
  readonly costUs: Readonly<Record<string, number>>;
  readonly backlog: number;
}

/**
 * Runs the drift: `minutes` minutes of a live mock over `alerts` alerts at 100/s, `requests` of each kind a
 * minute; prints a row a minute and the latest minutes' cost against minutes 2 to 4.
 *
 * @example
 * const { checks } = await liveDrift({ alerts: 20_000, minutes: 10, requests: 100 });
 */
export async function liveDrift(
  { alerts, minutes, requests }: { alerts: number; minutes: number; requests: number },
  log: (line: string) => void = console.log,
) {
  const spec = loadSpec();
  const env = { TEMPMON_API_KEY: undefined };
  const fail = (message: string): never => {
    throw new Error(message);
  };
  const values = parseServeArgs(spec.document, ['--live', '--live-rate', '100/s', '--alerts', String(alerts)], env, false, fail);
  const options = serveOptions(spec.document, values, env, fail);
  let now = Date.now();
  const app = createApp({ spec, dataset: options.dataset, live: { ...options.live!, clock: () => now } });
  // The key, in each header the spec's listings take it from.
  const keyed = Object.fromEntries(apiKeyHeaders(listListings(spec.document)).map((name) => [name, DEFAULT_API_KEY]));
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  while ((await app.request('/readyz')).status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
  log(
    `\nlive drift: tempmon serve --live --live-rate 100/s --alerts ${alerts} in this process, ${minutes} minutes of a moved clock, ${requests} requests of each kind a minute`,
  );

  // The soak's mix (live-mix.lua): terms that never repeat, pages of a seeded size and place.
  let n = 0;
  let seed = 1;
  const draw = (k: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return 1 + (seed % k);
  };
  const term = (stream: number) => ((n * 40_503 + 1_000_003 + stream * 8_388_608) % 16_777_216).toString(16).padStart(5, '0');
  const kinds: Record<string, () => string> = {
    'fresh alert search': () => `/alert?search=${term(0)}`,
    'random page': () => {
      const size = draw(100);
      return `/alert?page=${draw(Math.floor(alerts / size))}&pageSize=${size}`;
    },
    'sensor search, page 2': () => `/sensor?search=${term(1)}&page=2`,
    'forced error': () => (n % 2 === 0 ? '/alert?__code=500' : '/sensor?__code=404'),
  };
  const cpu = () => {
    const used = process.cpuUsage();
    return used.user + used.system;
  };
  const rows: DriftMinute[] = [];
  for (let minute = 1; minute <= minutes; minute += 1) {
    // The rest of the minute's clock, a second at a time, the loop turning as an idle server's.
    const spent = Object.keys(kinds).length * requests * 10;
    for (let moved = 0; moved < 60_000 - spent; moved += 1_000) {
      now += 1_000;
      await (await app.request('/readyz')).arrayBuffer();
      for (let k = 0; k < 400; k += 1) await turn();
    }
    const costUs: Record<string, number> = {};
    for (const [name, path] of Object.entries(kinds)) {
      let used = 0;
      for (let i = 0; i < requests; i += 1) {
        n += 1;
        now += 10;
        const url = path();
        const before = cpu();
        const answer = await app.request(url, { headers: keyed });
        await answer.arrayBuffer();
        used += cpu() - before;
        if (![200, 404, 500].includes(answer.status)) throw new Error(`${url} answered ${answer.status}`);
      }
      costUs[name] = Math.round(used / requests);
    }
    const body = (await (await app.request('/readyz')).json()) as { backlog?: Record<string, number> };
    const row = { minute, costUs, backlog: body.backlog?.alerts ?? 0 };
    rows.push(row);
    log(
      `  minute ${String(minute).padStart(2)}: ${Object.entries(costUs)
        .map(([name, us]) => `${name} ${us} µs`)
        .join(', ')}; alerts backlog ${row.backlog}`,
    );
  }
  const checks = Object.keys(kinds).flatMap((name) => {
    if (rows.length < 2 * SPAN + 1) return [];
    const mean = (minutes: readonly DriftMinute[]) => minutes.reduce((sum, r) => sum + r.costUs[name]!, 0) / minutes.length;
    const early = mean(rows.slice(1, 1 + SPAN));
    const late = mean(rows.slice(-SPAN));
    const ratio = late / early;
    const check = {
      what: `${name}: minutes ${rows.length - SPAN + 1}-${rows.length} vs 2-${1 + SPAN}`,
      value: `${Math.round(late)} vs ${Math.round(early)} µs (${ratio.toFixed(2)}x)`,
      target: `<= ${STEADY}x`,
      ok: ratio <= STEADY,
    };
    log(`  ${check.what.padEnd(50)} ${check.value.padEnd(28)} ${check.target.padEnd(9)} ${check.ok ? 'PASS' : 'MISS'}`);
    return [check];
  });
  return { rows, checks, failures: [] as string[] };
}

/**
 * The settings from the environment.
 *
 * @example
 * driftSettings({ BENCH_DRIFT_MINUTES: '10' }).minutes; // 10
 */
export function driftSettings(env: NodeJS.ProcessEnv = process.env) {
  return {
    alerts: Number(env.BENCH_DRIFT_ALERTS ?? 100_000),
    minutes: Number(env.BENCH_DRIFT_MINUTES ?? 30),
    requests: Number(env.BENCH_DRIFT_REQUESTS ?? 200),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { checks } = await liveDrift(driftSettings());
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}
