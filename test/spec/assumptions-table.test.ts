import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assumptionsTable, withAssumptionsTable } from '../../src/spec/assumptions-table.ts';
import { listAssumptions } from '../../src/spec/list-assumptions.ts';
import { spec } from '../helpers.ts';

describe('assumptions', () => {
  const assumptions = listAssumptions(spec.document);

  it('marks every decision the issue fixed as an assumption', () => {
    const where = assumptions.map((a) => a.pointer);
    for (const pointer of [
      '#/components/parameters/search',
      '#/components/parameters/page',
      '#/components/parameters/pageSize',
      '#/components/responses/BadRequest',
      '#/components/responses/Unauthorized',
      '#/components/schemas/Alert/properties/created_at',
      '#/components/schemas/Sensor',
      '#/paths/~1alert/get',
    ]) {
      expect(where).toContain(pointer);
    }
    expect(assumptions.every((a) => a.reason.length > 10)).toBe(true);
  });

  it('README.md carries the current table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(withAssumptionsTable(readme, spec.document) === readme, 'stale: run `npm run generate` and commit the result').toBe(true);
    expect(assumptionsTable(spec.document).split('\n')).toHaveLength(assumptions.length + 2);
  });
});
