import { closestMatch } from 'leven';
import type { Check } from '../model/check.ts';
import { ContractSetupError } from '../types.ts';
import { contentTypeConformance } from './content-type-conformance.ts';
import { defaultPageSize } from './default-page-size.ts';
import { documentedOrder } from './documented-order.ts';
import { emptySearchNoFilter } from './empty-search-no-filter.ts';
import { exploreMetadata } from './explore-metadata.ts';
import { explorePages } from './explore-pages.ts';
import { exploreSearch } from './explore-search.ts';
import { ignoredAuth } from './ignored-auth.ts';
import { otherRoadsToData } from './other-roads.ts';
import { linkHeader } from './link-header.ts';
import { maxResponseTime } from './max-response-time.ts';
import { negativeDataRejection } from './negative-data-rejection.ts';
import { notAServerError } from './not-a-server-error.ts';
import { pagePastEnd } from './page-past-end.ts';
import { pageSizeConformance } from './page-size-conformance.ts';
import { paginationConsistency } from './pagination-consistency.ts';
import { positiveDataAcceptance } from './positive-data-acceptance.ts';
import { responseHeadersConformance } from './response-headers-conformance.ts';
import { responseReceived } from './response-received.ts';
import { noSecretInAnswers } from './no-secret-in-answers.ts';
import { responseSchemaConformance } from './response-schema-conformance.ts';
import { searchCaseInsensitive } from './search-case-insensitive.ts';
import { searchFindsRecord } from './search-finds-record.ts';
import { searchNoMatch } from './search-no-match.ts';
import { searchSpecialTerms } from './search-special-terms.ts';
import { stableOrder } from './stable-order.ts';
import { statusCodeConformance } from './status-code-conformance.ts';
import { totalCountHeader } from './total-count-header.ts';
import { undocumentedFields } from './undocumented-fields.ts';

/** Every check, in the order they run and are reported: probes first, then what inspects every response. */
export const ALL_CHECKS: readonly Check[] = [
  ignoredAuth,
  otherRoadsToData,
  negativeDataRejection,
  positiveDataAcceptance,
  pageSizeConformance,
  paginationConsistency,
  stableOrder,
  pagePastEnd,
  defaultPageSize,
  documentedOrder,
  searchFindsRecord,
  searchNoMatch,
  searchSpecialTerms,
  searchCaseInsensitive,
  emptySearchNoFilter,
  explorePages,
  exploreSearch,
  exploreMetadata,
  totalCountHeader,
  linkHeader,
  responseReceived,
  noSecretInAnswers,
  notAServerError,
  statusCodeConformance,
  contentTypeConformance,
  responseSchemaConformance,
  responseHeadersConformance,
  undocumentedFields,
  maxResponseTime,
];

/** The checks named in `names` (all when undefined), in run order; throws naming any unknown name. */
export function selectChecks(names?: readonly string[]): Check[] {
  if (!names) return [...ALL_CHECKS];
  const known = new Set(ALL_CHECKS.map((c) => c.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    // A typo gets the name it most likely meant (at most three edits away); the list is in --help.
    const near = closestMatch(unknown[0]!, [...known], { maxDistance: 3 });
    throw new ContractSetupError(
      `unknown check ${unknown.join(', ')}${near ? `; did you mean ${near}?` : ''} (tempmon contract --help lists the ${known.size})`,
    );
  }
  return ALL_CHECKS.filter((c) => names.includes(c.name));
}
