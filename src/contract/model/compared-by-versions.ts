// A finding that compares answers, judged again by the versions rule with each answer alone.
import type { Exchange, Finding } from '../types.ts';
import type { Claim } from '../versions/rule.ts';
import type { OperationContext } from './context.ts';
import { sentClaim } from './listing-query.ts';

/**
 * What a finding comparing `compared` carries to be judged again by the versions rule with all the run saw (see
 * Failure.rejudge): dropped when a version admissible for its time explains each answer, by what its request
 * claimed (the page its query asked for; `claimOf` narrows that, to the count alone for one), since answers that
 * disagree though each is explained were read from versions apart (records arrived between them, replicas a
 * record apart); standing, in words naming the versions, when one of them no admissible version gives.
 *
 * @example
 * findings.push({ severity: 'error', message, exchanges: [first, second], ...comparedByVersions(context, [first, second]) });
 */
export function comparedByVersions(
  context: Pick<OperationContext, 'versions' | 'parameters'>,
  compared: readonly Exchange[],
  claimOf: (sent: Claim) => Claim = (sent) => sent,
): Pick<Finding, 'rejudge'> {
  return {
    async rejudge() {
      for (const exchange of compared) {
        const judged = await context.versions.judge(exchange, claimOf(sentClaim(context.parameters, exchange)));
        if (judged.kind === 'unknown') return { unknown: judged.why };
        if (judged.kind === 'unexplained') return { named: `an answer it compares is given by no version (${judged.why})` };
      }
      return false;
    },
  };
}
