// Answers a check compares with each other, each judged alone by the versions rule.
import type { Exchange } from '../types.ts';
import type { Claim } from '../versions/rule.ts';
import type { OperationContext } from './context.ts';
import { sentClaim } from './listing-query.ts';

/**
 * Whether a version admissible for its time explains each answer (see ListingVersions.judge), each judged by what
 * its request claimed (the page its query asked for; `claimOf` narrows that, to the count alone for one):
 * answers that disagree with each other though each is explained were read from versions apart (records arrived
 * between them, replicas a record apart), which movement explains; one the rule cannot tell or that no version
 * explains leaves the comparison to the check.
 *
 * @example
 * if (await explainedEach(context, [first, second])) return [];
 */
export async function explainedEach(
  context: Pick<OperationContext, 'versions' | 'parameters'>,
  exchanges: readonly Exchange[],
  claimOf: (sent: Claim) => Claim = (sent) => sent,
): Promise<boolean> {
  for (const exchange of exchanges)
    if ((await context.versions.judge(exchange, claimOf(sentClaim(context.parameters, exchange)))).kind !== 'explained') return false;
  return true;
}
