import type { ScenarioCheck } from '../check.ts';
import { identities, pageQuery, recordsOf } from '../check.ts';
import { pickSearchTerm } from './search-term.ts';

/** Searching a term in other letter case gives the same records (assumed: a warning). */
export const searchCaseInsensitive: ScenarioCheck = {
  name: 'search_case_insensitive',
  kind: 'scenario',
  description: 'a term in other letter case gives the same records (assumed)',
  async run(context) {
    const picked = await pickSearchTerm(context);
    const swapped = picked && [...picked.term].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    if (!picked || !swapped || swapped === picked.term) return { skip: 'no record has a term with letters to search for' };
    const name = context.parameters.search.name;
    const a = await context.send(pageQuery(context, 1, 20, { [name]: picked.term }));
    const b = await context.send(pageQuery(context, 1, 20, { [name]: swapped }));
    const [x, y] = [recordsOf(a), recordsOf(b)];
    if (!x || !y || identities(x).join() === identities(y).join()) return [];
    return [{ severity: 'warning', message: `searching ${JSON.stringify(swapped)} differs from ${JSON.stringify(picked.term)}`, expected: identities(x).join(', ') || '[]', actual: identities(y).join(', ') || '[]', exchange: b }];
  },
};
