import { answered, describeAnswers, identities, preview, recordsOf, unanswered } from '../model/answers.ts';
import { noEvidence, partly } from '../model/skip.ts';
import { compareAgain, sendEach } from '../moment/at-once.ts';
import type { Finding, ScenarioCheck } from '../model/check.ts';
import type { OperationContext } from '../model/context.ts';
import type { Exchange } from '../types.ts';
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
 * records are those of a value it spells. It compares answers read at different moments, so a mismatch is
 * rechecked (on data that changes, or replicas a record apart, the run judges it again). The forms that got no
 * answer to judge are told apart, as not observed.
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
  const formQuery = ({ name, fixed, form }: Form) => ({
    query: { ...fixed, [name]: form.value },
    ...(form.again ? { options: { extraQuery: [[name, form.again]] as const } } : {}),
  });
  const readAsQueries = ({ name, fixed, form }: Form) => form.readAs.map((v) => ({ query: { ...fixed, [name]: v } }));
  const sendForm = (form: Form) => context.send(formQuery(form).query, formQuery(form).options);
  const readAs = (form: Form) => Promise.all(readAsQueries(form).map(({ query }) => context.send(query)));
  /** The form's records when no value it spells has them; undefined when it reads as one (or is refused). */
  const misreading = (answer: Exchange, readings: readonly Exchange[] | undefined) => {
    const records = recordsOf(answer);
    if (!answered(answer) || !records || !readings) return undefined;
    const got = identities(records).join();
    const readable =
      readings.length === 0
        ? got === ''
        : readings.some((r) => {
            const read = recordsOf(r);
            return read && identities(read).join() === got;
          });
    return readable ? undefined : records;
  };
  // Two waves, each sent in the forms' order: the forms, then what the forms answered with records spell.
  const answers = await sendEach(context, forms, sendForm);
  const readings = await sendEach(context, forms, (form, i) =>
    answered(answers[i]!) && recordsOf(answers[i]!) ? readAs(form) : Promise.resolve(undefined),
  );
  const unseen = forms.flatMap((form, i) =>
    answered(answers[i]!) ? [] : [{ label: sentForm(form.name, form.form), exchange: answers[i]! }],
  );
  const findings = forms.flatMap((form, i) => {
    const records = misreading(answers[i]!, readings[i]);
    if (!records) return [];
    return [
      {
        ...misread(form.name, form.form, records, answers[i]!),
        // The form and what it spells sent together, so that both see one moment.
        recheck: compareAgain(
          context,
          [formQuery(form), ...readAsQueries(form)],
          ([again, ...readings]) => misreading(again!, readings) !== undefined,
        ),
      },
    ];
  });
  return { findings, notObserved: unanswered('ambiguous forms', forms.length, unseen) };
}

/** An ambiguous form as sent: `page="010"`, or the name twice. */
const sentForm = (name: string, form: AmbiguousForm) =>
  `${name}=${JSON.stringify(form.value)}${form.again ? `&${name}=${form.again}` : ''}`;

function misread(name: string, form: AmbiguousForm, records: readonly Record<string, unknown>[], exchange: Exchange): Finding {
  const sent = sentForm(name, form);
  return {
    severity: 'error',
    message:
      form.readAs.length > 0
        ? `${sent} was read as neither ${form.readAs.map((v) => `${name}=${v}`).join(' nor ')}`
        : `${sent} was not read as a page past the end`,
    expected:
      form.readAs.length > 0 ? `a 4xx, or the records of ${form.readAs.map((v) => `${name}=${v}`).join(' or ')}` : 'a 4xx, or 200 []',
    actual: `200 with ${preview(identities(records).join(', ') || '[]', 120)}`,
    exchange,
  };
}
