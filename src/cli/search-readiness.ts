import type { Hono } from 'hono';
import pino from 'pino';
import type { LogFormat } from '../http/request-log.ts';

/** How often the readiness probe is asked, and how much must be done for an estimate of the rest. */
const POLL_MS = 250;
const ESTIMATE_AT = 0.1;

/** What the readiness probe answers while the index is built: each collection's share done, 0..1. */
interface NotReady {
  readonly progress?: Readonly<Record<string, number>>;
}

/**
 * Follows the search index of a large dataset being built in the background, through the app's own readiness
 * probe, and says how it goes, as the banner does (so under `--quiet` too): once a tenth is done, an estimate
 * of when it will be ready; then one line when it is. Under `--log-format json` each is a pino
 * object. Returns a function that stops following (when the server closes first).
 *
 * @example
 * const stop = followSearchReadiness(mock.app, '/readyz', 2_000_000, 'compact', console.log);
 */
export function followSearchReadiness(
  app: Hono,
  path: string,
  records: number,
  format: LogFormat,
  log: (line: string) => void,
): () => void {
  const say =
    format === 'json'
      ? (() => {
          const logger = pino(
            { base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
            { write: (line: string) => log(line.trimEnd()) },
          );
          return (message: string, fields: Record<string, unknown>) => logger.info(fields, message);
        })()
      : (message: string) => log(`  ${message}`);
  const started = performance.now();
  let estimated = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = async () => {
    const response = await app.request(path);
    const seconds = (performance.now() - started) / 1000;
    if (response.status === 200) {
      say(`search ready: ${records.toLocaleString('en-US')} records indexed in ${seconds.toFixed(1)} s`, {
        event: 'search-ready',
        records,
        seconds: Number(seconds.toFixed(1)),
      });
      return;
    }
    const { progress = {} } = (await response.json()) as NotReady;
    const shares = Object.values(progress);
    const done = shares.length > 0 ? shares.reduce((sum, share) => sum + share, 0) / shares.length : 0;
    if (!estimated && done >= ESTIMATE_AT) {
      estimated = true;
      const left = (seconds * (1 - done)) / done;
      say(`search: ${Math.floor(done * 100)}% indexed after ${seconds.toFixed(1)} s, ready in about ${Math.ceil(left)} s`, {
        event: 'search-indexing',
        done: Number(done.toFixed(3)),
        secondsLeft: Math.ceil(left),
      });
    }
    timer = setTimeout(() => void poll(), POLL_MS);
    // The server keeps the process alive; following it must not.
    timer.unref();
  };
  timer = setTimeout(() => void poll(), POLL_MS);
  timer.unref();
  return () => clearTimeout(timer);
}
