import { it } from 'vitest';
import { KEY } from '../helpers.ts';
import { fromFetch, listen, runContractCli } from './hostile-servers.ts';
import { growing, liveTarget } from './live-targets.ts';

it('scratch live over http', async () => {
  const started = Date.now();
  const kind = process.env.KIND ?? 'growing';
  // Time-based: a new alert every 250 ms; requests counted per 250 ms tick.
  const source = (path: string) => {
    const tick = Math.floor((Date.now() - started) / 250);
    return growing(1)(path, tick);
  };
  const target = liveTarget((path, n) => (kind === 'replicas' ? source(path).slice(path === '/alert' ? n % 2 : 0) : source(path)));
  const handler = fromFetch(async (request) => {
    await new Promise((r) => setTimeout(r, 50));
    return target(request);
  });
  const server = await listen(handler);
  const result = await runContractCli(['--target', server.url, '--seed', '1'], { env: { TEMPMON_API_KEY: KEY }, killAfterMs: 600_000 });
  console.log(result.seconds, result.status, result.stdout.split('\n').filter((l) => /^(FAIL|WARN|SKIP)|skipped|ERROR|WARNING/.test(l)).join('\n'));
  console.log(result.stdout.split('\n').slice(-3).join('\n'));
  await server.close();
}, 900_000);
