import {
  answered,
  describeAnswers,
  identities,
  noEvidence,
  preview,
  recordsOf,
  type Finding,
  type OperationContext,
  type ScenarioCheck,
} from '../check.ts';
import type { Exchange } from '../types.ts';
import { ambiguousIntegerForms, generatedInvalidIntegers, invalidIntegerValues, type AmbiguousForm } from './invalid-values.ts';

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
    const unseen: Exchange[] = [];
    let sent = 0;
    for (const parameter of [context.parameters.page, context.parameters.pageSize]) {
      const values = [
        ...new Set([...invalidIntegerValues(parameter.schema), ...generatedInvalidIntegers(parameter.schema, context.seed, GENERATED)]),
      ];
      for (const value of values) {
        const exchange = await context.send({ [parameter.name]: value });
        sent += 1;
        // A 5xx is not_a_server_error's to report, a redirect hides the answer: neither says "accepted".
        if (!answered(exchange)) {
          unseen.push(exchange);
          continue;
        }
        const status = exchange.response!.status;
        if (status >= 400) continue;
        findings.push({
          severity: 'error',
          message: `${parameter.name}=${value} was accepted`,
          expected: '4xx',
          actual: `${status} ${preview(exchange.response?.text ?? '', 60)}`,
          exchange,
          // One answer shows it, whatever the data did.
          absolute: true,
        });
      }
    }
    findings.push(...(await judgeAmbiguousForms(context)));
    if (unseen.length === sent) return noEvidence(`no invalid value got an answer to judge: ${describeAnswers(unseen)}`);
    return findings;
  },
};

/**
 * Each ambiguous form of page (with pageSize 1, so page n is record n) and of pageSize: a 4xx, or a 200 whose
 * records are those of a value it spells. It compares answers read at different moments, so a mismatch is
 * rechecked (on data that changes, or replicas a record apart, the run judges it again).
 */
async function judgeAmbiguousForms(context: OperationContext): Promise<Finding[]> {
  const { page, pageSize } = context.parameters;
  const findings: Finding[] = [];
  for (const [parameter, fixed] of [
    [page, { [pageSize.name]: String(pageSize.schema.minimum ?? 1) }],
    [pageSize, {}],
  ] as const) {
    for (const form of ambiguousIntegerForms(parameter.schema)) {
      const send = () =>
        context.send({ ...fixed, [parameter.name]: form.value }, form.again ? { extraQuery: [[parameter.name, form.again]] } : undefined);
      /** The records of the form's answer when no value it spells has them; undefined when it reads as one (or is refused). */
      const misreading = async (): Promise<{ records: readonly Record<string, unknown>[]; exchange: Exchange } | undefined> => {
        const exchange = await send();
        const records = recordsOf(exchange);
        if (!answered(exchange) || !records) return undefined;
        const readings = await Promise.all(form.readAs.map(async (v) => recordsOf(await context.send({ ...fixed, [parameter.name]: v }))));
        const got = identities(records).join();
        const readable = form.readAs.length === 0 ? got === '' : readings.some((r) => r && identities(r).join() === got);
        return readable ? undefined : { records, exchange };
      };
      const found = await misreading();
      if (found)
        findings.push({
          ...misread(parameter.name, form, found.records, found.exchange),
          recheck: async () => (await misreading()) !== undefined,
        });
    }
  }
  return findings;
}

function misread(name: string, form: AmbiguousForm, records: readonly Record<string, unknown>[], exchange: Exchange): Finding {
  const sent = `${name}=${JSON.stringify(form.value)}${form.again ? `&${name}=${form.again}` : ''}`;
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
