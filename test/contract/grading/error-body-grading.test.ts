import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../src/contract/client/http-client.ts';
import { createProxy } from '../../../src/proxy/create-proxy.ts';
import type { ContractReport } from '../../../src/contract/types.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { createSchemaValidator } from '../../../src/spec/schema-validator.ts';
import { targetView } from '../../../src/spec/target-view.ts';
import { KEY, LISTINGS, get, runInProcess, spec, validator } from '../../helpers.ts';

// What the spec assumes of a target's error bodies is RFC 9457; the mock's `errors` items ({in, name,
// detail}) are its own extension, marked x-mock-only, which a target may shape differently.
const app = createApp({ spec, dataset: { seed: 2, counts: { alerts: 30, sensors: 12 } } });

/** RFC 9457 section 3's own example of an `errors` extension member, with a status. */
const RFC_EXAMPLE = {
  type: 'https://example.net/validation-error',
  title: 'Your request is not valid.',
  status: 400,
  errors: [{ detail: 'must be a positive integer', pointer: '#/page' }],
};

/** The mock, except that every 400 answers `body` as problem+json; counts the 400s it rewrote. */
function with400Body(body: Record<string, unknown>) {
  const target = { rewritten: 0, fetch: undefined as unknown as FetchLike };
  target.fetch = async (request) => {
    const response = await app.fetch(request as Request);
    if (response.status !== 400) return response;
    target.rewritten += 1;
    return new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/problem+json' } });
  };
  return target;
}

const run = (fetch: FetchLike, strict = true) =>
  runInProcess(fetch, { strict, checks: ['negative_data_rejection', 'response_schema_conformance'] });

const schemaOutcomes = (report: ContractReport) => report.outcomes.filter((o) => o.check === 'response_schema_conformance');

describe('grading of error bodies: RFC 9457 is what a target is held to', () => {
  it.each([
    ['RFC 9457 example (errors items with detail and pointer)', RFC_EXAMPLE],
    ['errors as an object', { ...RFC_EXAMPLE, errors: { page: 'must be a positive integer' } }],
    [
      'no errors member',
      { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'page must be >= 1', instance: '/alert?page=0' },
    ],
  ])('%s: no response_schema_conformance finding under --strict', async (_, body) => {
    const target = with400Body(body);
    const report = await run(target.fetch);
    // The kit really did read such bodies: negative_data_rejection's probes of every listing got them.
    expect(target.rewritten).toBeGreaterThanOrEqual(LISTINGS.length * 10);
    const outcomes = schemaOutcomes(report);
    expect(outcomes.map((o) => o.operationId).sort()).toEqual(LISTINGS.map((op) => op.operationId).sort());
    expect(outcomes.flatMap((o) => o.failures.map((f) => `${o.operationId}: ${f.message}`))).toEqual([]);
    expect(outcomes.every((o) => o.status === 'passed')).toBe(true);
    expect(report.conformant).toBe(true);
  });

  it.each([
    ['status as a string', { ...RFC_EXAMPLE, status: '400' }, '$.status'],
    ['type not a string', { ...RFC_EXAMPLE, type: 42 }, '$.type'],
    ['instance not a URI reference', { ...RFC_EXAMPLE, instance: 'two words' }, '$.instance'],
  ])('%s breaks RFC 9457 itself: a warning, failing only under --strict', async (_, body, where) => {
    const strict = await run(with400Body(body).fetch);
    for (const outcome of schemaOutcomes(strict)) {
      expect(outcome.status, outcome.operationId).toBe('failed');
      expect(outcome.failures.length).toBeGreaterThan(0);
      expect(outcome.failures.every((f) => f.severity === 'warning')).toBe(true);
      expect(outcome.failures.every((f) => f.message.startsWith(`${where} `))).toBe(true);
    }
    expect(schemaOutcomes(strict)).toHaveLength(LISTINGS.length);
    const lenient = await run(with400Body(body).fetch, false);
    expect(schemaOutcomes(lenient).map((o) => o.status)).toEqual(LISTINGS.map(() => 'warned'));
  });
});

describe('the validating proxy grades error bodies the same way', () => {
  const violations = async (body: Record<string, unknown>) => {
    const proxy = await createProxy({ target: 'http://upstream.test', spec, fetch: with400Body(body).fetch });
    // pageSize=abc gets the mock's 400, which the target rewrites; the client's own mistake is set aside.
    const response = await proxy.app.request('/sensor?pageSize=abc', { headers: { 'x-api-key': KEY } });
    expect(response.status).toBe(400);
    return proxy.violations().violations.filter((v) => v.check !== 'request_query_conformance');
  };

  it('passes an RFC 9457 example through with no violation, and reports a string status as a warning', async () => {
    expect(await violations(RFC_EXAMPLE)).toEqual([]);
    const broken = await violations({ ...RFC_EXAMPLE, status: '400' });
    expect(broken.map(({ check, severity, message }) => ({ check, severity, message }))).toEqual([
      { check: 'response_schema_conformance', severity: 'warning', message: '$.status must be integer' },
    ]);
  });
});

describe("the mock's own 400 is still held to the full spec", () => {
  it('validates against Problem with ParameterError items, and would not without name', async () => {
    const response = await get(app, '/alert?page=0&pageSize=abc');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Record<string, unknown>[] };
    expect(body.errors.map((e) => e.name)).toEqual(['page', 'pageSize']);
    expect(validator.validate('Problem', body)).toEqual([]);

    const nameless = { ...body, errors: body.errors.map(({ name: _, ...rest }) => rest) };
    expect(validator.validate('Problem', nameless)).toContainEqual(
      expect.objectContaining({ path: '$.errors[0]', message: "must have required property 'name'" }),
    );
    // The same body is fine for a target: the view drops the mock-only member.
    expect(createSchemaValidator(targetView(spec.document)).validate('Problem', nameless)).toEqual([]);
  });

  it('rejects the RFC example against the full spec, so the grading above depends on the view', () => {
    expect(validator.validate('Problem', RFC_EXAMPLE).map((i) => i.message)).toEqual(
      expect.arrayContaining(["must have required property 'in'", "must have required property 'name'"]),
    );
    expect(createSchemaValidator(targetView(spec.document)).validate('Problem', RFC_EXAMPLE)).toEqual([]);
  });
});
