import type { ScenarioCheck } from '../check.ts';
import { identities, pageQuery, recordsOf } from '../check.ts';

/** Without page and pageSize, the first page of the spec's default size comes back (assumed: a warning). */
export const defaultPageSize: ScenarioCheck = {
  name: 'default_page_size',
  kind: 'scenario',
  description: 'no page or pageSize gives page 1 of the default size (assumed)',
  async run(context) {
    const page = Number(context.parameters.page.schema.default);
    const size = Number(context.parameters.pageSize.schema.default);
    const bare = await context.send({});
    const explicit = await context.send(pageQuery(context, page, size));
    const [x, y] = [recordsOf(bare), recordsOf(explicit)];
    if (!x || !y || identities(x).join() === identities(y).join()) return [];
    return [{ severity: 'warning', message: `the default page is not page ${page} of size ${size}`, expected: `${y.length} records: ${identities(y).slice(0, 3).join(', ')}…`, actual: `${x.length} records: ${identities(x).slice(0, 3).join(', ')}…`, exchange: bare }];
  },
};
