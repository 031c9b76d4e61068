import type { Hono } from 'hono';
import type { ProbeOperation } from '../spec/probe-operations.ts';
import type { DatasetStore } from '../store/dataset-store.ts';
import { PROBLEMS, problem } from '../http/problem.ts';

/** Probes answer about now: no cache may keep an answer. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Serves the spec's health probes, with no key: liveness answers 200 while the process runs; readiness
 * answers 200 once every collection's search index is built, and until then 503 problem+json with each
 * collection's progress (0..1) and Retry-After, so an orchestrator or a test harness knows when to start.
 * In live mode both also give each collection's backlog: the settled records a search scans for want of
 * a built part of the index, which stays under two blocks once ready.
 */
export function addProbeRoutes(app: Hono, probes: readonly ProbeOperation[], store: DatasetStore): void {
  for (const probe of probes) {
    app.get(probe.path, (c) => {
      if (probe.kind === 'liveness') return c.json({ status: 'ok' }, 200, NO_STORE);
      const progress = Object.fromEntries(store.keys().map((key) => [key, store.collection(key).searchReady()]));
      // Live data: the records each search scans for want of a built part, which must stay bounded.
      const backlogs = store.keys().flatMap((key) => {
        const backlog = store.collection(key).searchBacklog?.();
        return backlog === undefined ? [] : [[key, backlog] as const];
      });
      const backlog = backlogs.length === 0 ? {} : { backlog: Object.fromEntries(backlogs) };
      const waiting = Object.entries(progress).filter(([, done]) => done < 1);
      if (waiting.length === 0) return c.json({ status: 'ready', progress, ...backlog }, 200, NO_STORE);
      const shares = waiting.map(([key, done]) => `${key} ${Math.floor(done * 100)}%`).join(', ');
      return problem(c, PROBLEMS.notReady, `The search index is still being built (${shares}); retry shortly.`, {
        headers: { 'Retry-After': '1', ...NO_STORE },
        extra: { progress, ...backlog },
      });
    });
    app.all(probe.path, (c) =>
      problem(c, PROBLEMS.methodNotAllowed, `${c.req.method} is not allowed on ${probe.path}; use GET.`, {
        headers: { Allow: 'GET, HEAD' },
      }),
    );
  }
}
