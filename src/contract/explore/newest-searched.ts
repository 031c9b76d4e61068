// A record that arrived during the run, searched for: the evidence of a search index that never takes in new records.
import { identities, identity, recordsOf } from '../records.ts';
import type { OperationContext } from '../model/context.ts';
import { headQuery, searchHeadQuery } from '../model/head-read.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import { largestPageSize } from '../model/listing-query.ts';
import { termOnlyIn } from '../material/search-term.ts';
import type { Finding } from '../types.ts';

/**
 * The newest record at the listing's head that every replica seen holds, when it arrived during the run (the listing
 * as first read lacks it), searched for by a value only it holds. An index that never takes in new records shows only
 * to a search that should find one of them, and the terms drawn from the listing as first read may miss every one.
 * Judged by the versions rule: while a version younger than --max-staleness explains the answer it is asked again (an
 * index behind catches up, and its lag is measured); a finding once none does. Undefined when nothing arrived, the
 * record holds no value of its own, or the answer passes.
 *
 * @example
 * const finding = await newestSearched(context); // after the run's other searches: records had time to arrive
 */
export async function newestSearched(context: OperationContext): Promise<Finding | undefined> {
  const { history } = context.versions;
  const [seen, lineage] = [history.seen(), history.lineage()];
  if (!seen || !lineage || seen.newest === seen.oldest) return undefined;
  const head = await context.send(headQuery(context));
  const records = recordsOf(head) ?? [];
  // Past the versions replicas were seen behind by: a record each of them holds (a replica stuck behind is
  // stable_order's and the head's to judge over time, not a search's).
  const held = lineage.ids.length - 1 - history.behindVersions();
  const newest = records.find((r) => (lineage.position(identity(r)) ?? Number.POSITIVE_INFINITY) <= held);
  const { records: listed } = await context.listing();
  if (!newest || listed.some((r) => identity(r) === identity(newest))) return undefined;
  const term = termOnlyIn(context, newest, [...records, ...listed]);
  if (term === undefined) return undefined;
  const query = searchHeadQuery(context, term);
  const exchange = await context.send(query);
  const verdict = await judgeAnswer(
    context.versions,
    exchange,
    [{ term, page: { offset: 0, size: largestPageSize(context.parameters) } }],
    (why, expected) => ({
      severity: 'warning',
      message: `searching ${JSON.stringify(term)}, taken from ${identity(newest)}, the newest record at the listing's head, which arrived during the run: ${why}`,
      expected: expected ?? `a result ${identity(newest)}`,
      actual: identities(recordsOf(exchange) ?? []).join(', ') || '[]',
      exchange,
      exchanges: [exchange, head],
    }),
    () => context.send(query),
  );
  return verdict.kind === 'finding' ? verdict.finding : undefined;
}
