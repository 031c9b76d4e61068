import type { ScenarioCheck } from '../check.ts';
import { identities, recordsOf } from '../check.ts';

/** An empty search term means no filter (assumed: a warning). */
export const emptySearchNoFilter: ScenarioCheck = {
  name: 'empty_search_no_filter',
  kind: 'scenario',
  description: 'an empty search term gives the same records as no term (assumed)',
  async run(context) {
    const plain = await context.send({});
    const empty = await context.send({ [context.parameters.search.name]: '' });
    const [x, y] = [recordsOf(plain), recordsOf(empty)];
    if (!x) return [];
    if (y && identities(x).join() === identities(y).join()) return [];
    return [{ severity: 'warning', message: 'search= (empty) changed the result', expected: `${x.length} records as without search`, actual: y ? `${y.length} records` : `status ${empty.response?.status ?? empty.error}`, exchange: empty }];
  },
};
