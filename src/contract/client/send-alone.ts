// A request that timed out, lost its connection or got a 5xx while others were in flight may have waited behind
// them (a database still running the queries its client gave up on) or been shed by a gateway at its limit: it is
// judged by what it does alone.
import type { Exchange } from '../types.ts';
import { DEADLINE_REACHED, TIMED_OUT, type Attempt, type AttemptRequest } from './attempt.ts';
import type { ConcurrencyLimit } from './concurrency-limit.ts';
import { CLOSED_BY_TARGET } from './network-error.ts';
import type { Scheduler } from './scheduler.ts';
import { sleep } from './sleep.ts';
import type { TimingLog } from './timing-log.ts';

/** Requests sent again alone per run, at most: a target that hangs cannot spend the run's time on them. */
export const SENT_ALONE_CAP = 20;
/** The longest pause between two probes. */
const MAX_PAUSE_MS = 2_000;

/** Statuses a gateway or a server answers with when it sheds load (Bad Gateway, Service Unavailable, Gateway Timeout). */
export const SHED_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Whether an attempt timed out or lost its connection. */
export const timedOutOrReset = (result: Attempt) =>
  'error' in result && result.error !== undefined && (result.error.startsWith(TIMED_OUT) || result.error.startsWith(CLOSED_BY_TARGET));

const statusOf = (result: Attempt) => ('response' in result ? result.response?.status : undefined);

/** Whether an attempt got a 502, 503 or 504: load shed. */
export const shed = (result: Attempt) => SHED_STATUSES.has(statusOf(result) ?? 0);

/** Whether an attempt timed out, lost its connection or got a 502/503/504: what an overloaded target does. */
export const overloaded = (result: Attempt) => timedOutOrReset(result) || shed(result);

/**
 * Whether an attempt that failed so with others in flight is sent again alone: overloaded, or a 500 (a database's
 * statement timeout the load brought, most often).
 */
export const sendsAgain = (result: Attempt) => overloaded(result) || statusOf(result) === 500;

/** Sends requests again alone; one per client. */
export interface SendAlone {
  /** Keeps `request` as the probe of its kind: it got an ordinary answer. */
  remember(kind: string, request: Omit<AttemptRequest, 'mayRetry'>): void;
  /**
   * The load a request that failed had to bear: the most in flight while it was, or, when it started while the
   * target may still have been running requests the kit gave up on under load (a database's queries most often),
   * one more than the timeouts' worth of them still ahead of it. Records this failure for the next.
   */
  loadAt(startedAt: number, inFlight: number): number;
  /**
   * What `first` (failed under load) comes to: sent again by `resend` with nothing else in flight, once a probe
   * answers at its kind's unloaded speed (the exchange alone, `firstUnderLoad` set), or `first` marked
   * `notSentAlone` when the run's re-sends are spent or its deadline came first.
   */
  again(first: Exchange, resend: () => Promise<Exchange>): Promise<Exchange>;
  /** `first` marked `notSentAlone`, and counted: a request that cannot be sent again alone. */
  notAgain(first: Exchange): Exchange;
}

/**
 * Creates the re-sending of one client: at most `cap` re-sends; before each, probes with the cheapest kind of
 * request seen answered (the lowest unloaded latency) until one answers at that speed, pausing 100 ms, then
 * twice as long each time up to 2 s, and for at most `timeoutMs` in all.
 *
 * @example
 * const alone = createSendAlone({ scheduler, limit, timing, attempt, timeoutMs: 10_000, cap: SENT_ALONE_CAP });
 * const exchange = await alone.again(timedOut, () => send(request));
 */
export function createSendAlone(parts: {
  readonly scheduler: Scheduler;
  readonly limit: ConcurrencyLimit;
  readonly timing: TimingLog;
  readonly attempt: (request: AttemptRequest) => Promise<Attempt>;
  readonly timeoutMs: number;
  readonly cap: number;
  readonly signal?: AbortSignal;
}): SendAlone {
  const { scheduler, limit, timing, attempt, timeoutMs, signal } = parts;
  let left = parts.cap;
  const probes = new Map<string, Omit<AttemptRequest, 'mayRetry'>>();
  /** The probe of the kind that answers fastest unloaded. */
  const cheapest = () => {
    const unloaded = limit.unloaded();
    const known = [...probes.keys()].filter((kind) => unloaded.has(kind));
    const kind = known.sort((a, b) => unloaded.get(a)! - unloaded.get(b)!)[0];
    return kind === undefined ? undefined : { kind, request: probes.get(kind)! };
  };
  const failures = loadOfFailures(timeoutMs);
  /**
   * Resolves once the target may have ended the requests given up on under load (each may run a --timeout more, in
   * line: a database's queries past their client, up to its statement timeout) and then a probe answers at its unloaded
   * speed (true; true too with no probe to send, or the deadline passed), or false when `timeoutMs` of probing has
   * passed without: the target is still busy. A probe alone misses a database busy on its CPUs: a cheap query gets
   * its share of them at once, while a search beside what the kit gave up on takes twice as long.
   */
  const quietAgain = async (mayGo: () => Promise<boolean>) => {
    const wait = failures.busyUntil() - performance.now();
    if (wait > 0 && !(await sleep(wait, signal))) return true;
    const giveUpAt = performance.now() + timeoutMs;
    for (let pause = 0; performance.now() < giveUpAt; pause = Math.min(Math.max(100, pause * 2), MAX_PAUSE_MS)) {
      const probe = cheapest();
      if (!probe) return true;
      if ((pause > 0 && !(await sleep(pause, signal))) || !(await mayGo())) return true;
      timing.probed();
      const started = performance.now();
      const result = await attempt({ ...probe.request, mayRetry: false });
      if (!overloaded(result) && !limit.queueing(probe.kind, performance.now() - started)) return true;
    }
    return false;
  };
  const notAgain = (first: Exchange): Exchange => {
    timing.sentAlone('notSent');
    return { ...first, notSentAlone: true };
  };
  return {
    remember: (kind, request) => {
      probes.set(kind, request);
    },
    loadAt: failures.loadAt,
    notAgain,
    async again(first, resend) {
      if (left <= 0 || signal?.aborted) return notAgain(first);
      left -= 1;
      // The wait for what the kit gave up on first goes beside the run's other requests: alone, it would hold them all.
      const settling = failures.busyUntil() - performance.now();
      if (settling > 0 && !(await sleep(settling, signal))) return notAgain(first);
      let quiet = true;
      const alone = await scheduler.alone(async (mayGo) => {
        quiet = await quietAgain(mayGo);
        return (await mayGo()) ? resend() : undefined;
      });
      if (!alone || alone.error === DEADLINE_REACHED) return notAgain(first);
      const failed = alone.error !== undefined || (alone.response?.status ?? 0) >= 500;
      // A 502/503/504 alone too is the request's own answer, not load shed: the limit need not stay below its load.
      if (SHED_STATUSES.has(first.response?.status ?? 0) && (alone.response?.status ?? 0) >= 500) limit.notShed(first.inFlight ?? 0);
      timing.sentAlone(failed ? 'failedAlone' : 'answered', failed && !quiet);
      return { ...alone, firstUnderLoad: first, ...(failed && !quiet ? { stillBusy: true } : {}) };
    },
  };
}

/**
 * See SendAlone.loadAt: a failed request's load, from those given up on before it (each after `timeoutMs`); and
 * until when the target may still run them (-Infinity: none given up on).
 */
function loadOfFailures(timeoutMs: number): { readonly loadAt: SendAlone['loadAt']; busyUntil(): number } {
  /**
   * Requests given up on under load, as they were given up: when, and until when the target may still be running
   * them and those before. Each may run up to a timeout more, and on a target with few workers they wait in line,
   * so their times add up (the last failure's load alone undercounts a line built by many small ones).
   */
  const givenUp: { readonly at: number; readonly busyUntil: number }[] = [];
  const loadAt: SendAlone['loadAt'] = (startedAt, inFlight) => {
    const now = performance.now();
    // Only those given up on before it started: one given up on later was in flight beside it, counted there.
    const before = givenUp.findLast((g) => g.at <= startedAt)?.busyUntil ?? Number.NEGATIVE_INFINITY;
    const behind = before > startedAt ? Math.ceil((before - startedAt) / timeoutMs) + 1 : 0;
    const load = Math.max(inFlight, behind);
    if (load > 1) {
      givenUp.push({ at: now, busyUntil: Math.max(givenUp.at(-1)?.busyUntil ?? now, now) + timeoutMs });
      // What ended a timeout before the earliest request still in flight could have started is no longer asked.
      while (givenUp.length > 1 && givenUp[1]!.at < now - 2 * timeoutMs) givenUp.shift();
    }
    return load;
  };
  return { loadAt, busyUntil: () => givenUp.at(-1)?.busyUntil ?? Number.NEGATIVE_INFINITY };
}
