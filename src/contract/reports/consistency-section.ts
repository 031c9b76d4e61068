// The console's consistency section: what the run saw of each listing's movement, as the versions rule measured it.
import { duration } from '../../shared/duration.ts';
import type { ListingCoverage } from '../types.ts';

/**
 * One line per listing that moved or answered behind its data during the run (none when every listing stood still):
 * versions seen, records arrived, how far behind a read was, the staleness measured for pages and searches, and
 * connections that each kept to one version.
 *
 * @example
 * lines.push(...consistencySection(report.coverage ?? []));
 * // consistency: listAlerts 41 versions seen (40 records arrived); reads up to 1 record behind one already seen; ...
 */
export function consistencySection(coverage: readonly ListingCoverage[]): string[] {
  return coverage.flatMap(({ operationId, consistency: c }) => {
    if (!c || (c.versions <= 1 && c.pageStalenessMs === 0 && c.searchStalenessMs === 0)) return [];
    const parts = [
      `${operationId} ${c.versions} version${c.versions === 1 ? '' : 's'} seen (${c.arrived} record${c.arrived === 1 ? '' : 's'} arrived)`,
    ];
    if (c.behindRecords > 0)
      parts.push(
        `reads up to ${c.behindRecords} record${c.behindRecords === 1 ? '' : 's'} behind a version already seen (replicas, a cache)`,
      );
    parts.push(`staleness measured: pages ${duration(c.pageStalenessMs)}, searches ${duration(c.searchStalenessMs)}`);
    if (c.connections?.pinned) parts.push(`${c.connections.seen} connections, each kept to one version`);
    return [`consistency: ${parts.join('; ')}`];
  });
}
