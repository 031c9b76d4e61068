import { answered, describeAnswers, preview, unanswered } from '../model/answers.ts';
import { recordsOf } from '../records.ts';
import { noEvidence, notApplicable, partly } from '../model/skip.ts';
import { sendEach } from '../model/send-each.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { keyInText, missingKeys, wrongKeys } from '../material/wrong-keys.ts';

/** Generated look-alike keys per operation, besides the fixed variants. */
const GENERATED_KEYS = 8;

/**
 * Every request without the right key is refused without records: no key, an empty or random key, keys that
 * resemble the real one (edited first, middle and last, cut short, one character in the other case or a
 * Unicode look-alike, two swapped), and other credentials in its place: accepting one is an error. The whole
 * key inside other text (a word before or after it, Bearer, a list, appended characters, twice), and the right key
 * where the interface does not put it (the query, a cookie named after the header, generic cookies): accepting it
 * is a warning. Refusing with a status other than 401/403 is a warning (the statuses are assumed).
 */
export const ignoredAuth: ScenarioCheck = {
  name: 'ignored_auth',
  kind: 'scenario',
  judgesEachAnswer: true,
  description: 'requests without the right key (none, empty, random, look-alike keys, other credentials) get 401/403 and no records',
  evidence: 'the right key gets a 200 listing, and the wrong ones get a non-5xx answer',
  skip: ({ operation }) => (operation.apiKeyHeader ? undefined : notApplicable('the operation is not secured by an API key')),
  async run(context) {
    const baseline = await context.send({});
    if (!recordsOf(baseline)) return noEvidence(`the right key itself did not get a 200 listing: ${describeAnswers([baseline])}`);
    // skip() ran first: the operation has a key header.
    const header = context.operation.apiKeyHeader!;
    const variants = [
      ...missingKeys(header, context.apiKey, context.seed),
      ...(context.apiKey ? [...wrongKeys(context.apiKey, context.seed, GENERATED_KEYS), ...keyInText(context.apiKey, context.seed)] : []),
    ];
    const findings: Finding[] = [];
    const unseen: { label: string; exchange: Exchange }[] = [];
    const answers = await sendEach(context, variants, (variant) =>
      context.send(variant.query ?? {}, { apiKey: variant.apiKey, ...(variant.headers ? { headers: variant.headers } : {}) }),
    );
    for (const [i, variant] of variants.entries()) {
      const exchange = answers[i]!;
      if (!answered(exchange)) {
        unseen.push({ label: variant.label, exchange });
        continue;
      }
      const response = exchange.response!;
      const records = recordsOf(exchange) ?? (Array.isArray(response.json) ? response.json : undefined);
      if (response.status < 300) {
        findings.push({
          severity: variant.severity,
          message: `${variant.label} was accepted`,
          expected: '401 or 403 without records',
          actual: `${response.status} ${preview(response.text, 80)}`,
          exchange,
        });
      } else if (records && records.length > 0) {
        findings.push({
          severity: 'error',
          message: `${variant.label} got records with status ${response.status}`,
          expected: 'no records',
          actual: preview(response.text, 80),
          exchange,
        });
      } else if (response.status !== 401 && response.status !== 403) {
        // The interface shows no error statuses; 401/403 is what our spec assumes.
        findings.push({
          severity: 'warning',
          message: `${variant.label} got ${response.status}`,
          expected: '401 or 403',
          actual: String(response.status),
          exchange,
        });
      }
    }
    if (unseen.length === variants.length)
      return noEvidence(`no wrong key got an answer to judge: ${describeAnswers(unseen.map((u) => u.exchange))}`);
    // A variant without an answer was not seen refused: its part of the claim is reported, not passed.
    return partly(findings, unanswered('wrong keys', variants.length, unseen));
  },
};
