import type { ScenarioCheck } from '../check.ts';
import { identities, pageQuery, recordsOf } from '../check.ts';

/** The same request twice gives the same records in the same order. */
export const stableOrder: ScenarioCheck = {
  name: 'stable_order',
  kind: 'scenario',
  description: 'the same request twice gives the same records in the same order',
  async run(context) {
    const query = pageQuery(context, 1, 10);
    const first = await context.send(query);
    const second = await context.send(query);
    const [a, b] = [recordsOf(first), recordsOf(second)];
    if (!a || !b) return [];
    const [x, y] = [identities(a), identities(b)];
    if (x.join() === y.join()) return [];
    return [{ severity: 'error', message: 'the same request gave different records or order', expected: x.join(', '), actual: y.join(', '), exchange: second }];
  },
};
