import { preview } from '../model/answers.ts';
import { identities } from '../records.ts';
import type { Finding } from '../types.ts';
import { containsTerm } from './search-term.ts';

/**
 * Text as the most lenient reasonable search reads it: accents stripped, compatibility forms folded (NFKC:
 * full-width letters, ligatures), full case folding (ß is ss, dotless ı is i), whitespace trimmed and collapsed.
 *
 * @example
 * lenientText('  Ｔempérature   Straße ') === 'temperature strasse'
 */
export function lenientText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFKC').toUpperCase().toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Every value of a record as text (numbers and booleans too), nested arrays and objects included. */
function valuesAsText(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return Object.values(value).flatMap(valuesAsText);
  return [String(value)];
}

/** Whether some value of `record`, read as text, contains `term` under {@link lenientText}. */
export function containsLeniently(record: unknown, term: string): boolean {
  const needle = lenientText(term);
  return valuesAsText(record).some((value) => lenientText(value).includes(needle));
}

/**
 * The one grade of one observation, the records a search for `term` returned, judged by their content alone:
 * an error when none of them contains the term even read leniently ({@link containsLeniently}: the search
 * cannot have found them by any reasonable matching, e.g. `%` read as a SQL wildcard); a warning when some do
 * not contain it as the spec assumes (a case-insensitive substring of a string field), only leniently or not at
 * all; nothing when every one does, or the term reads as empty (all spaces: no filter).
 *
 * @example
 * searchAnswerFinding('%', records); // an error when no record holds a '%'
 */
export function searchAnswerFinding(term: string, records: readonly Record<string, unknown>[]): Omit<Finding, 'exchange'> | undefined {
  if (records.length === 0 || lenientText(term) === '') return undefined;
  const shown = JSON.stringify(term.length > 20 ? `${term.slice(0, 20)}… (${term.length} characters)` : term);
  if (!records.some((r) => containsLeniently(r, term))) {
    return {
      severity: 'error',
      message: `${records.length} result${records.length === 1 ? '' : 's'} for ${shown}, and none contains it, even ignoring case, accents, width and spacing, numbers read as text`,
      expected: 'only records containing the term',
      actual: preview(identities(records.slice(0, 3)).join(', '), 200),
      // The answer alone shows it, whatever the data did.
      absolute: true,
    };
  }
  const strays = records.filter((r) => !containsTerm(r, term));
  if (strays.length === 0) return undefined;
  return {
    severity: 'warning',
    message: `${strays.length} of ${records.length} results for ${shown} do not contain it literally (ignoring case)`,
    expected: 'only records containing the term',
    actual: preview(identities(strays.slice(0, 3)).join(', '), 200),
  };
}
