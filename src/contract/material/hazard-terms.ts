/** A search term that breaks a classic backend, and the bug it looks for. */
export interface HazardTerm {
  readonly term: string;
  readonly looksFor: string;
}

/**
 * Search terms by class, each with the bug it looks for. Read-only and harmless to a production target: no
 * statement that would write, no shell or XML payload; what they probe is how a term reaches the query.
 */
export const HAZARD_TERMS: Readonly<Record<string, readonly HazardTerm[]>> = {
  'SQL LIKE wildcards': [
    { term: '%', looksFor: 'LIKE without escaping: % matches everything' },
    { term: '_', looksFor: 'LIKE without escaping: _ matches any one character' },
    { term: '%_', looksFor: 'LIKE without escaping: %_ matches every non-empty value' },
    { term: '\\%', looksFor: 'an escape character passed through to LIKE' },
  ],
  'regular expressions': [
    { term: '.*', looksFor: 'the term run as a regular expression (matches everything)' },
    { term: 'a.c', looksFor: 'the term run as a regular expression (. matches any character)' },
    { term: '(', looksFor: 'an invalid regular expression thrown as a 5xx' },
    { term: '[', looksFor: 'an invalid character class thrown as a 5xx' },
    { term: '\\', looksFor: 'a trailing backslash in a regular expression or a string literal' },
    { term: '^$|x', looksFor: 'alternation and anchors in a regular expression' },
  ],
  'JSON and JavaScript literals': [
    { term: 'null', looksFor: 'the term parsed as JSON or compared with null' },
    { term: 'undefined', looksFor: 'a missing value stringified' },
    { term: 'NaN', looksFor: 'the term parsed as a number' },
    { term: 'true', looksFor: 'the term parsed as a boolean' },
    { term: 'false', looksFor: 'the term parsed as a boolean (falsy: no filter)' },
    { term: '[]', looksFor: 'the term parsed as a JSON array' },
    { term: '{}', looksFor: 'the term parsed as a JSON object' },
  ],
  quotes: [
    { term: "'", looksFor: 'a string literal broken by a single quote (SQL built by concatenation)' },
    { term: '"', looksFor: 'a string literal broken by a double quote' },
    { term: "o'clock", looksFor: 'a quote inside a word' },
    { term: '`', looksFor: 'a template literal or identifier quote' },
  ],
  'format strings': [
    { term: '%s', looksFor: 'the term used as a printf format' },
    { term: '%d', looksFor: 'the term used as a printf format' },
    { term: '{0}', looksFor: 'the term used as a .NET or Python format' },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal ${x} is the hazard.
    { term: '${x}', looksFor: 'the term interpolated as a template' },
  ],
  'encoded text': [
    { term: '%25', looksFor: 'the term percent-decoded twice (%25 is %)' },
    { term: '%2525', looksFor: 'the term percent-decoded twice' },
    { term: '+', looksFor: 'a plus read as a space' },
    { term: '&x=1', looksFor: 'the term pasted into a query string unescaped' },
  ],
  whitespace: [
    { term: ' ', looksFor: 'an all-space term (the empty search)' },
    { term: '\t', looksFor: 'a tab (the empty search when trimmed)' },
    { term: ' zq ', looksFor: 'a padded term' },
  ],
  'control characters': [
    { term: '\u0000', looksFor: 'a NUL byte ending a C string or refused by a database' },
    { term: '\r\nx-injected: 1', looksFor: 'CR LF carried into a header or a log line' },
    { term: '\u001b[0m', looksFor: 'a terminal escape' },
  ],
  Unicode: [
    { term: 'température ❄', looksFor: 'non-ASCII letters and symbols' },
    { term: 'e\u0301', looksFor: 'a combining mark (NFD)' },
    { term: 'é', looksFor: 'a precomposed letter (NFC) against NFD data' },
    { term: '\u202eabc', looksFor: 'a right-to-left override' },
    { term: '😀', looksFor: 'an emoji (a surrogate pair in UTF-16)' },
    { term: '👩‍🔬', looksFor: 'an emoji sequence joined by ZWJ' },
    { term: 'ＡＢＣ', looksFor: 'full-width forms' },
    { term: 'ı', looksFor: 'dotless i (Turkish case mapping)' },
  ],
  // A mapping that changes a text's length: an index computed on the folded text runs past the original.
  'case mappings that change length': [
    { term: 'İ', looksFor: 'İ lowered to two code points (i and a combining dot): an index past the end of the term' },
    { term: 'ß', looksFor: 'ß upper-cased to SS: a buffer sized for the original' },
    { term: 'ŉ', looksFor: 'ŉ upper-cased to ʼN: one code point becomes two' },
    { term: 'ﬁ', looksFor: 'the ligature ﬁ upper-cased to FI' },
    { term: 'ς', looksFor: 'a final sigma: upper-cased to Σ, which lowers to σ (a round trip that changes the term)' },
  ],
  'long terms': [
    { term: 'x'.repeat(1000), looksFor: 'a 1,000-character term (a column or buffer limit)' },
    { term: 'é'.repeat(500), looksFor: '1,000 bytes of UTF-8 in 500 characters' },
  ],
};

/** Every hazard term, in class order. */
export const hazardTerms = (): HazardTerm[] => Object.values(HAZARD_TERMS).flat();

/**
 * Every hazard term, one of each class in turn (the first of each class, then the second, ...): the first N, as a
 * run trimmed to fit its time sends, hold every class from N = the number of classes.
 *
 * @example
 * hazardProbes().slice(0, 3).map((h) => h.term); // ['%', '.*', 'null']
 */
export function hazardProbes(): HazardTerm[] {
  const classes = Object.values(HAZARD_TERMS);
  const longest = Math.max(...classes.map((terms) => terms.length));
  return Array.from({ length: longest }, (_, i) => classes.flatMap((terms) => (i < terms.length ? [terms[i]!] : []))).flat();
}

/** The number of hazard classes: the fewest special terms that still send one of each. */
export const HAZARD_CLASSES = Object.keys(HAZARD_TERMS).length;
