import { describe, expect, it } from 'vitest';
import { caseAmbiguous, includesIgnoringCase } from '../../../src/contract/material/case-forms.ts';
import { containsTerm } from '../../../src/contract/material/search-term.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { runInProcess, spec } from '../../helpers.ts';

describe('case mappings that change length', () => {
  it('accepts simple and full case mapping alike, and nothing that holds neither form', () => {
    expect(includesIgnoringCase('Istanbul', 'İ')).toBe(true); // simple: İ is i (PostgreSQL's ILIKE)
    expect(includesIgnoringCase('i\u0307stanbul', 'İ')).toBe(true); // full: i and a combining dot (toLowerCase)
    expect(includesIgnoringCase('STRASSE', 'ß')).toBe(true);
    expect(includesIgnoringCase('Straße', 'SS')).toBe(true);
    expect(includesIgnoringCase('FIRE', 'ﬁ')).toBe(true);
    expect(includesIgnoringCase('ΟΣΑ', 'ς')).toBe(true);
    expect(includesIgnoringCase('Stra-e', 'ß')).toBe(false);
    expect(includesIgnoringCase('Ostanbul', 'İ')).toBe(false);
    expect(containsTerm({ city: 'Glasgow', sites_id: ['STRASSE 4'] }, 'ß')).toBe(true);
  });

  it('tells the terms whose matching depends on the mapping', () => {
    expect(['İ', 'ß', 'ŉ', 'ﬁ', 'ς', 'ı'].map(caseAmbiguous)).toEqual([true, true, true, true, true, true]);
    expect(['cold', 'É', 'ΟΔΟΣ'].map(caseAmbiguous)).toEqual([false, false, false]);
  });

  it('passes a backend that folds fully (ß is ss) or simply (İ is i), under --strict', async () => {
    const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 60, sensors: 20 } } });
    const seen: string[] = [];
    // The mock's own search, fed the term as such a backend folds it.
    const folding = (request: Request) => {
      const url = new URL(request.url);
      const term = url.searchParams.get('search');
      if (term && /[İßﬁŉς]/.test(term)) {
        seen.push(term);
        url.searchParams.set(
          'search',
          term.replace(/ß/g, 'ss').replace(/İ/g, 'i').replace(/ﬁ/g, 'fi').replace(/ŉ/g, 'ʼn').replace(/ς/g, 'σ'),
        );
      }
      return app.fetch(new Request(url, { headers: request.headers }));
    };
    const report = await runInProcess(folding, {
      strict: true,
      seed: 2,
      checks: ['search_special_terms', 'explore_search', 'explore_pages'],
    });
    expect(seen).toEqual(expect.arrayContaining(['İ', 'ß', 'ŉ', 'ﬁ', 'ς']));
    expect(report.outcomes.flatMap((o) => o.failures.map((f) => `${o.check}: ${f.message}`))).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });
});
