import { withListing, type ScenarioCheck } from '../model/check.ts';
import { needRecords } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { comparedByVersions } from '../model/compared-by-versions.ts';

/** An empty search term means no filter (assumed: a warning). */
export const emptySearchNoFilter: ScenarioCheck = {
  name: 'empty_search_no_filter',
  kind: 'scenario',
  description: 'an empty search term gives the same records as no term (assumed)',
  evidence: 'a listing with at least 1 record, and a 200 array without search',
  run: withListing(1, async (context) => {
    const plain = await context.send({});
    const empty = await context.send({ [context.parameters.search.name]: '' });
    const unusable = needRecords([plain], 'the first page without search');
    if (unusable) return unusable;
    const [x, y] = [recordsOf(plain)!, recordsOf(empty)];
    if (y && identities(x).join() === identities(y).join()) return [];
    return [
      {
        severity: 'warning',
        message: 'search= (empty) changed the result',
        expected: `${x.length} records as without search`,
        actual: y ? `${y.length} records` : `status ${empty.response?.status ?? empty.error}`,
        exchange: empty,
        exchanges: [plain, empty],
        // search= may reach a search index behind the listing's own reads: each answer a version of its own.
        ...(y ? comparedByVersions(context, [plain, empty], { eachAlone: true }) : {}),
      },
    ];
  }),
};
