// Answers a check compares with each other, each judged alone by the versions rule.
import type { Exchange } from '../types.ts';
import type { ListingVersions } from '../versions/listing-versions.ts';
import type { Claim } from '../versions/rule.ts';

/**
 * Whether a version admissible for its time explains each answer (see ListingVersions.judge): answers that
 * disagree with each other though each is explained were read from versions apart (records arrived between them,
 * replicas a record apart), which movement explains; one the rule cannot tell or that no version explains leaves
 * the comparison to the check.
 *
 * @example
 * if (await explainedEach(context.versions, [{ exchange: first, claim }, { exchange: second, claim }])) return [];
 */
export async function explainedEach(
  versions: ListingVersions,
  answers: readonly { readonly exchange: Exchange; readonly claim: Claim }[],
): Promise<boolean> {
  for (const { exchange, claim } of answers) if ((await versions.judge(exchange, claim)).kind !== 'explained') return false;
  return true;
}
