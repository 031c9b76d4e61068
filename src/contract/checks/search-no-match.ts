import type { ScenarioCheck } from '../check.ts';
import { preview, recordsOf } from '../check.ts';
import { NO_MATCH_TERM } from './search-term.ts';

/** A term nothing contains gives 200 [] (assumed: a warning). */
export const searchNoMatch: ScenarioCheck = {
  name: 'search_no_match',
  kind: 'scenario',
  description: 'a term no record contains gives 200 [] (assumed)',
  async run(context) {
    const exchange = await context.send({ [context.parameters.search.name]: NO_MATCH_TERM });
    const records = recordsOf(exchange);
    if (!records || records.length === 0) return [];
    return [{ severity: 'warning', message: `searching ${JSON.stringify(NO_MATCH_TERM)} gave ${records.length} records: search looks ignored`, expected: '[]', actual: preview(records[0], 80), exchange }];
  },
};
