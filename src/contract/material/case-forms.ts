// Case-insensitive matching has more than one right answer where a case mapping changes a text's length:
// simple mapping (one code point to one, as PostgreSQL's ILIKE folds İ to i) and full mapping (JavaScript's
// toLowerCase folds İ to i̇; ß is SS in upper case). A search conforms under either.

/** The ways a backend reasonably folds case: full lower case, simple lower case, and upper then lower (full folding). */
const FOLDS: readonly ((text: string) => string)[] = [
  (text) => text.toLowerCase(),
  // Simple mapping keeps one code point: İ (U+0130) lowers to i, not to i and a combining dot.
  (text) => text.replace(/\u0130/g, 'i').toLowerCase(),
  // Full folding: ß and SS meet at ss, ﬁ and FI at fi, ŉ at ʼn, a final sigma ς and σ at σ.
  (text) => text.toUpperCase().toLowerCase(),
];

/**
 * Whether `haystack` contains `needle` ignoring case under one of the mappings a backend may use.
 *
 * @example
 * includesIgnoringCase('Strasse', 'ß'); // true: folded fully, both hold ss
 * includesIgnoringCase('istanbul', 'İ'); // true: mapped simply, İ is i
 */
export function includesIgnoringCase(haystack: string, needle: string): boolean {
  return FOLDS.some((fold) => fold(haystack).includes(fold(needle)));
}

/**
 * Whether the mappings disagree on `term` (it holds İ, ß, ŉ, ﬁ, a final sigma...): then which records match
 * depends on the backend's mapping, and no one answer is the right one.
 *
 * @example
 * caseAmbiguous('İ'); // true
 * caseAmbiguous('cold'); // false
 */
export function caseAmbiguous(term: string): boolean {
  return new Set(FOLDS.map((fold) => fold(term))).size > 1;
}

/**
 * `text` with each letter in the other case.
 *
 * @example
 * swapCase('Cold-1'); // 'cOLD-1'
 */
export const swapCase = (text: string): string =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
