import type { KindLimitFigures, LatencyFigures, TimingReport } from '../types.ts';
import { duration } from '../../shared/duration.ts';

const figures = (label: string, f: LatencyFigures | undefined) =>
  f ? [`${label} p50 ${duration(f.p50Ms)}, p95 ${duration(f.p95Ms)} (${f.count})`] : [];

/** A kind's own limit, when it came down or was held: `own limit 2 to 4, 3 at the end, held below 4`. */
const ownLimit = (own: KindLimitFigures | undefined) =>
  own && (own.queuedAt !== undefined || own.end < own.highest)
    ? [
        `own limit ${own.lowest === own.highest ? own.lowest : `${own.lowest} to ${own.highest}`}, ${own.end} at the end${own.queuedAt !== undefined ? `, held below ${own.queuedAt}` : ''}`,
      ]
    : [];

/**
 * The console's timing section: the limit of requests in flight as it moved and why it was lowered, latency
 * per kind of request alone (at most 2 in flight) and under load, and the requests sent again alone.
 *
 * @example
 * lines.push(...timingSection(report.timing));
 * // timing: 2 to 8 requests in flight (ceiling 8, 8 at the end)
 * //   /alert page: alone p50 3 ms, p95 9 ms (40); under load p50 4 ms, p95 12 ms (700)
 */
export function timingSection(timing: TimingReport): string[] {
  const { limit, kinds, sentAgainAlone: again } = timing;
  const lowered = limit.changes.filter((c) => c.to < c.from);
  const range = limit.lowest === limit.highest ? `${limit.lowest}` : `${limit.lowest} to ${limit.highest}`;
  const lines = [
    `timing: ${range} requests in flight (ceiling ${limit.ceiling}, ${limit.end} at the end)${timing.peakRssMb !== undefined ? `; peak RSS ${timing.peakRssMb} MB` : ''}${lowered.length > 0 ? `; lowered ${lowered.length} time${lowered.length === 1 ? '' : 's'}, first as ${lowered[0]!.why}` : ''}`,
  ];
  for (const kind of kinds)
    lines.push(
      `  ${kind.kind}: ${[...figures('alone', kind.alone), ...figures('under load', kind.underLoad), ...(kind.failed > 0 ? [`${kind.failed} timed out or reset`] : []), ...(kind.shed ? [`${kind.shed} answered 502/503/504`] : []), ...ownLimit(kind.limit)].join('; ')}`,
    );
  const tried = again.answered + again.failedAlone + again.notSent;
  if (tried > 0)
    lines.push(
      `  failed under load (no response or a 5xx), sent again alone: ${again.answered} answered alone, ${again.failedAlone} failed alone too${again.stillBusy ? ` (${again.stillBusy} with the target still busy: no probe answered at its unloaded speed)` : ''}${again.notSent > 0 ? `, ${again.notSent} not sent again (at most ${again.cap} per run; none on a connection of their own)` : ''}; ${again.probes} probe${again.probes === 1 ? '' : 's'} sent first`,
    );
  return lines;
}
