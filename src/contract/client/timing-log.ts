// What the target's speed did to the run: latency per kind of request, alone and under load, the limit of
// requests in flight as it moved, and the requests that failed under load and were sent again alone.
import type { LatencyFigures, TimingReport } from '../types.ts';
import { ALONE_IN_FLIGHT, type ConcurrencyLimit } from './concurrency-limit.ts';

/** What the client tells the log as requests end. */
export interface TimingLog {
  /**
   * One attempt's end: its kind, latency, requests in flight when it started (itself included), and whether it was
   * answered, timed out or lost its connection (`failed`), or got a 502/503/504 (`shed`).
   */
  sample(kind: string, latencyMs: number, inFlight: number, outcome: 'answered' | 'failed' | 'shed'): void;
  probed(): void;
  /** A request sent again alone came to `outcome`; `stillBusy`: it failed alone with the target still busy. */
  sentAlone(outcome: 'answered' | 'failedAlone' | 'notSent', stillBusy?: boolean): void;
  report(): TimingReport;
}

/**
 * Creates the timing log of one client, over its limit of requests in flight.
 *
 * @example
 * const timing = createTimingLog(limit, 20);
 * timing.sample('/alert search', 1800, 1, 'answered');
 * timing.report().kinds; // [{ kind: '/alert search', alone: { count: 1, p50Ms: 1800, p95Ms: 1800 }, failed: 0 }]
 */
export function createTimingLog(limit: ConcurrencyLimit, cap: number): TimingLog {
  const start = limit.current();
  let [lowest, highest] = [start, start];
  // Lists of its own, not the limit's latencies alone: the report counts every answer (not the latest 64), those after
  // a 429 pinned the limit too, and none the deadline aborted.
  const kinds = new Map<string, { alone: number[]; underLoad: number[]; failed: number; shed: number }>();
  const sentAgain = { answered: 0, failedAlone: 0, notSent: 0, probes: 0, stillBusy: 0 };
  return {
    sample(kind, latencyMs, inFlight, outcome) {
      const now = limit.current();
      [lowest, highest] = [Math.min(lowest, now), Math.max(highest, now)];
      const figures = kinds.get(kind) ?? { alone: [], underLoad: [], failed: 0, shed: 0 };
      kinds.set(kind, figures);
      if (outcome !== 'answered') figures[outcome] += 1;
      else (inFlight <= ALONE_IN_FLIGHT ? figures.alone : figures.underLoad).push(latencyMs);
    },
    probed: () => {
      sentAgain.probes += 1;
    },
    sentAlone: (outcome, stillBusy) => {
      sentAgain[outcome] += 1;
      if (stillBusy) sentAgain.stillBusy += 1;
    },
    report: () => ({
      limit: {
        ceiling: limit.ceiling,
        start,
        end: limit.current(),
        lowest: Math.min(lowest, limit.current()),
        highest: Math.max(highest, limit.current()),
        changes: limit.changes,
        changeCount: limit.changeCount(),
      },
      kinds: [...kinds]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([kind, { alone, underLoad, failed, shed }]) => {
          const own = limit.kinds().get(kind);
          return {
            kind,
            ...(alone.length > 0 ? { alone: figuresOf(alone) } : {}),
            ...(underLoad.length > 0 ? { underLoad: figuresOf(underLoad) } : {}),
            failed,
            ...(shed > 0 ? { shed } : {}),
            ...(own ? { limit: own } : {}),
          };
        }),
      sentAgainAlone: (({ stillBusy, ...rest }) => ({ ...rest, ...(stillBusy > 0 ? { stillBusy } : {}), cap }))(sentAgain),
    }),
  };
}

/** Nearest-rank percentiles, whole ms. */
function figuresOf(latencies: readonly number[]): LatencyFigures {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!);
  return { count: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95) };
}
