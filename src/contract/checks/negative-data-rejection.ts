import { answered, describeAnswers, preview, unanswered } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { noEvidence, partly } from '../model/skip.ts';
import { sendEach } from '../model/send-each.ts';
import { firstPage, pageQuery, queryClaim } from '../model/listing-query.ts';
import { judgeAnswer } from '../model/judge-answer.ts';
import type { Claim } from '../versions/rule.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import type { OperationContext } from '../model/context.ts';
import { pageSizeRange } from '../material/generated-request.ts';
import { ambiguousIntegerForms, generatedInvalidIntegers, invalidIntegerValues, type AmbiguousForm } from '../material/invalid-values.ts';

/** Generated invalid values per parameter, besides the fixed edges. */
const GENERATED = 6;

/**
 * page and pageSize outside their stated limits, or not integers, get a 4xx; forms a server may read either
 * way (leading zeros, a plus sign, spaces, the name twice, page above 2^31-1) get a 4xx or the answer to the
 * value they spell, never another.
 */
export const negativeDataRejection: ScenarioCheck = {
  name: 'negative_data_rejection',
  kind: 'scenario',
  description:
    'page and pageSize values outside their limits or not integers (edges and generated values) get a 4xx; 010, +10, " 10 " and the name twice get a 4xx or the answer for the value they spell',
  evidence: 'a 200 listing for a valid request, and a non-5xx answer to the invalid ones',
  async run(context) {
    const baseline = await context.send({});
    if (!recordsOf(baseline)) return noEvidence(`a valid request did not get a 200 listing: ${describeAnswers([baseline])}`);
    const findings: Finding[] = [];
    const unseen: { label: string; exchange: Exchange }[] = [];
    const invalid = [context.parameters.page, context.parameters.pageSize].flatMap((parameter) =>
      [...new Set([...invalidIntegerValues(parameter.schema), ...generatedInvalidIntegers(parameter.schema, context.seed, GENERATED)])].map(
        (value) => ({ name: parameter.name, value }),
      ),
    );
    const answers = await sendEach(context, invalid, ({ name, value }) => context.send({ [name]: value }));
    for (const [i, { name, value }] of invalid.entries()) {
      const exchange = answers[i]!;
      // A 5xx is not_a_server_error's to report, a redirect hides the answer: neither says "accepted".
      if (!answered(exchange)) {
        unseen.push({ label: `${name}=${value}`, exchange });
        continue;
      }
      const status = exchange.response!.status;
      if (status >= 400) continue;
      findings.push({
        severity: 'error',
        message: `${name}=${value} was accepted`,
        expected: '4xx',
        actual: `${status} ${preview(exchange.response?.text ?? '', 60)}`,
        exchange,
        // One answer shows it, whatever the data did.
        absolute: true,
      });
    }
    const ambiguous = await judgeAmbiguousForms(context);
    findings.push(...ambiguous.findings);
    if (unseen.length === invalid.length)
      return noEvidence(`no invalid value got an answer to judge: ${describeAnswers(unseen.map((u) => u.exchange))}`);
    // A value or form without an answer was not seen refused (or read as it spells): reported, not passed.
    return partly(findings, [...unanswered('invalid values', invalid.length, unseen), ...ambiguous.notObserved]);
  },
};

/**
 * Each ambiguous form of page (with pageSize 1, so page n is record n) and of pageSize: a 4xx, or a 200 whose
 * records are those a value it spells gives in a version of the listing admissible for its time (the versions
 * rule: on data that moves, replicas apart, an answer from any version the run saw then is the value's). The
 * forms that got no answer to judge are told apart, as not observed.
 */
async function judgeAmbiguousForms(context: OperationContext): Promise<{ findings: Finding[]; notObserved: string[] }> {
  const { page, pageSize } = context.parameters;
  const forms = (
    [
      [page, { [pageSize.name]: String(pageSizeRange(context.parameters).min) }],
      [pageSize, {}],
    ] as const
  ).flatMap(([parameter, fixed]) => ambiguousIntegerForms(parameter.schema).map((form) => ({ name: parameter.name, fixed, form })));
  type Form = (typeof forms)[number];
  const sendForm = ({ name, fixed, form }: Form) =>
    context.send({ ...fixed, [name]: form.value }, form.again ? { extraQuery: [[name, form.again]] } : undefined);
  /** What the form claims, for each value it spells: the page of the listing that value asks for. */
  const claimsOf = ({ name, fixed, form }: Form): Claim[] =>
    (form.readAs.length > 0 ? form.readAs : [String(2 ** 31)]).map((value) => queryClaim(context.parameters, { ...fixed, [name]: value }));
  // The versions start from the listing as read; most checks have asked for it already.
  await context.listing();
  const answers = await sendEach(context, forms, sendForm);
  const unseen: { label: string; exchange: Exchange }[] = [];
  const findings: Finding[] = [];
  for (const [i, form] of forms.entries()) {
    const answer = answers[i]!;
    if (!answered(answer)) unseen.push({ label: sentForm(form.name, form.form), exchange: answer });
    const records = answered(answer) ? recordsOf(answer) : undefined;
    if (!records) continue;
    const verdict = await judgeAnswer(context.versions, answer, claimsOf(form), (why) =>
      misread(form.name, form.form, records, answer, why),
    );
    if (verdict.kind === 'finding') findings.push(verdict.finding);
    if (verdict.kind === 'unknown') findings.push(...(await comparedWithReadings(context, form, claimsOf(form), verdict.fallback)));
  }
  return { findings, notObserved: unanswered('ambiguous forms', forms.length, unseen) };
}

/**
 * Where the versions cannot tell (replicas apart): the form sent again together with the values it spells, and
 * compared with their answers; a finding only when none of them gives its records (the older mechanisms judge it).
 */
async function comparedWithReadings(
  context: OperationContext,
  { name, fixed, form }: { name: string; fixed: Readonly<Record<string, string>>; form: AmbiguousForm },
  claims: readonly Claim[],
  fallback: Finding,
): Promise<Finding[]> {
  const formAsk = {
    query: { ...fixed, [name]: form.value },
    ...(form.again ? { options: { extraQuery: [[name, form.again]] as const } } : {}),
  };
  const first = firstPage(context.parameters);
  const readings = claims.map(({ page }) => pageQuery(context, first + page!.offset / page!.size, page!.size));
  const [again, ...read] = await Promise.all(context.sendTogether([formAsk, ...readings.map((query) => ({ query }))]));
  const got = identities(recordsOf(again!) ?? []).join();
  return read.some((r) => recordsOf(r) && identities(recordsOf(r)!).join() === got) ? [] : [fallback];
}

/** An ambiguous form as sent: `page="010"`, or the name twice. */
const sentForm = (name: string, form: AmbiguousForm) =>
  `${name}=${JSON.stringify(form.value)}${form.again ? `&${name}=${form.again}` : ''}`;

function misread(name: string, form: AmbiguousForm, records: readonly Record<string, unknown>[], exchange: Exchange, why: string): Finding {
  const sent = sentForm(name, form);
  return {
    severity: 'error',
    message:
      form.readAs.length > 0
        ? `${sent} was read as neither ${form.readAs.map((v) => `${name}=${v}`).join(' nor ')}: ${why}`
        : `${sent} was not read as a page past the end: ${why}`,
    expected:
      form.readAs.length > 0 ? `a 4xx, or the records of ${form.readAs.map((v) => `${name}=${v}`).join(' or ')}` : 'a 4xx, or 200 []',
    actual: `200 with ${preview(identities(records).join(', ') || '[]', 120)}`,
    exchange,
  };
}
