import { needRecords } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { needListing } from '../model/listing.ts';
import { pageQuery } from '../model/listing-query.ts';
import type { ScenarioCheck } from '../model/check.ts';
import { comparedByVersions } from '../model/compared-by-versions.ts';

/** Without page and pageSize, the first page of the spec's default size comes back (assumed: a warning). */
export const defaultPageSize: ScenarioCheck = {
  name: 'default_page_size',
  kind: 'scenario',
  description: 'no page or pageSize gives page 1 of the default size (assumed)',
  evidence: 'a listing longer than the default page size, and 200 arrays with and without page and pageSize',
  async run(context) {
    const page = Number(context.parameters.page.schema.default);
    const size = Number(context.parameters.pageSize.schema.default);
    // With no more records than one default page, any default size at least that large looks the same.
    const missing = needListing(await context.listing(), size + 1);
    if (missing) return missing;
    const bare = await context.send({});
    const explicit = await context.send(pageQuery(context, page, size));
    const unusable = needRecords([bare, explicit], 'comparing the default page with an explicit one');
    if (unusable) return unusable;
    const [x, y] = [recordsOf(bare)!, recordsOf(explicit)!];
    if (identities(x).join() === identities(y).join()) return [];
    return [
      {
        severity: 'warning',
        message: `the default page is not page ${page} of size ${size}`,
        expected: `${y.length} records: ${identities(y).slice(0, 3).join(', ')}…`,
        actual: `${x.length} records: ${identities(x).slice(0, 3).join(', ')}…`,
        exchange: bare,
        exchanges: [bare, explicit],
        ...comparedByVersions(context, [bare, explicit]),
      },
    ];
  },
};
