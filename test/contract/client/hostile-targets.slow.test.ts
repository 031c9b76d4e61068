// Issue 9: the built CLI (`node dist/cli/main.js contract`) against hostile targets over real HTTP. Each
// target is a small node:http server in this process, on 127.0.0.1; the CLI runs as a child process with a
// long key in TEMPMON_API_KEY. Every case checks the exit code, the verdict line, both report files, and
// that no output (stdout, stderr, the JUnit and JSON files) shows the key or any 8-character fragment of it,
// in any of the forms a target may echo it in.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { spec } from '../../helpers.ts';
import {
  closeAll,
  endlessJson,
  findLeaks,
  fromFetch,
  listen,
  portFree,
  runContractCli,
  toRequest,
  writeResponse,
  type CliResult,
} from '../targets/hostile-servers.ts';

/** Long (so any 8-character fragment of it counts as a leak), with characters URL-encoding and base64 change. */
const KEY = 'tmk_live.7Hq2-Zx9/Wp4+Rv8~Lc3Ne6Ya1Ks5';
const PLACEHOLDER = '$TEMPMON_API_KEY';
const dir = mkdtempSync(join(tmpdir(), 'tempmon-hostile-'));
const app = createApp({ spec, apiKeys: [KEY], dataset: { seed: 3, counts: { alerts: 30, sensors: 10 } } });
/** Small runs: enough requests to judge the checks asked for, a few seconds each. */
const SMALL = ['--examples', '10', '--max-pages', '3'];

afterAll(async () => {
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
});

interface Run extends CliResult {
  readonly junit?: string;
  readonly json?: string;
  readonly report?: {
    verdict: string;
    reason?: string;
    outcomes: {
      check: string;
      operationId: string;
      status: string;
      skipReason?: string;
      skipCause?: string;
      failures: { message: string; actual?: string }[];
    }[];
    summary: { retried: number; requests: number };
  };
  /** The last line of stdout: the verdict. */
  readonly verdictLine: string;
}

let runs = 0;
/** Runs the built CLI against `target` with a JUnit and a JSON report, the key in TEMPMON_API_KEY. */
async function contract(target: string, args: readonly string[], options: { measureRss?: boolean; reports?: boolean } = {}): Promise<Run> {
  runs += 1;
  const junitPath = join(dir, `run-${runs}.xml`);
  const jsonPath = join(dir, `run-${runs}.json`);
  const reportArgs = options.reports === false ? [] : ['--junit', junitPath, '--json', jsonPath];
  const result = await runContractCli(['--target', target, ...reportArgs, ...args], {
    env: { TEMPMON_API_KEY: KEY },
    ...(options.measureRss ? { measureRss: true } : {}),
  });
  const junit = existsSync(junitPath) ? readFileSync(junitPath, 'utf8') : undefined;
  const json = existsSync(jsonPath) ? readFileSync(jsonPath, 'utf8') : undefined;
  const verdictLine = result.stdout.trimEnd().split('\n').at(-1) ?? '';
  return {
    ...result,
    ...(junit !== undefined ? { junit } : {}),
    ...(json !== undefined ? { json, report: JSON.parse(json) } : {}),
    verdictLine,
  };
}

/** Every string of a parsed JSON value (and every member name), for looking at each one decoded. */
function stringsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, into);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      stringsOf(v, into);
    }
  return into;
}

/** No output of the run shows the key or any 8-character fragment of it (literal, escaped, encoded, base64). */
function expectNoLeak(run: Run): void {
  const outputs: [string, string][] = [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ...(run.junit !== undefined ? [['junit', run.junit] as [string, string]] : []),
    ...(run.json !== undefined
      ? [['json', run.json] as [string, string], ...stringsOf(JSON.parse(run.json)).map((s): [string, string] => ['json string', s])]
      : []),
  ];
  const leaks = outputs.flatMap(([where, text]) => findLeaks(text, KEY).map((hit) => `${where}: ${hit}`));
  expect(leaks).toEqual([]);
}

/** The JUnit file is well-formed XML; its testcases by `operation/check`. */
function junitCases(
  run: Run,
): Map<string, { failure?: { '@_message': string }; skipped?: { '@_message': string }; error?: { '@_message': string } }> {
  expect(run.junit, 'the JUnit report was written').toBeDefined();
  expect(XMLValidator.validate(run.junit!)).toBe(true);
  const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(run.junit!);
  const cases = new Map();
  for (const suite of xml.testsuites.testsuite ?? [])
    for (const testcase of suite.testcase ?? []) cases.set(`${testcase['@_classname']}/${testcase['@_name']}`, testcase);
  return cases;
}

const OPERATIONS = ['listAlerts', 'listSensors'];
const INCONCLUSIVE_CHECKS = ['positive_data_acceptance', 'stable_order', 'search_special_terms'];

/** Exit 1, NOT conformant, `check` failing on both listings in every output, the finding mentioning `status`. */
function expectNotConformant(run: Run, check: string, status: string): void {
  expect(run.stderr).toBe('');
  expect(run.status).toBe(1);
  expect(run.verdictLine).toMatch(/^NOT conformant/);
  expect(run.stdout).toMatch(new RegExp(`^FAIL ${check}: `, 'm'));
  expect(run.report?.verdict).toBe('not conformant');
  const cases = junitCases(run);
  for (const operationId of OPERATIONS) {
    const outcome = run.report!.outcomes.find((o) => o.check === check && o.operationId === operationId);
    expect(outcome?.status).toBe('failed');
    expect(outcome!.failures.map((f) => `${f.message} ${f.actual ?? ''}`).join('\n')).toContain(status);
    expect(cases.get(`${operationId}/${check}`)?.failure?.['@_message']).toContain(status);
  }
}

/** Exit 1, INCONCLUSIVE, each requested check skipped on both listings for want of evidence, the reason naming `status`. */
function expectInconclusive(run: Run, status: string): void {
  expect(run.stderr).toBe('');
  expect(run.status).toBe(1);
  // Counted in checks; no listing answered, so said once per listing, the checks skipped under it (issue 51, item 2).
  expect(run.verdictLine).toMatch(/^INCONCLUSIVE: 3 requested checks could not be evaluated: every request to \/alert and \/sensor got /);
  expect(run.verdictLine).toContain(status);
  expect(run.stdout.match(/^(PASS|FAIL|WARN|SKIP) \w+/gm)).toBeNull();
  const folded = run.stdout.slice(run.stdout.indexOf('  SKIP on listAlerts and listSensors, for want of a listing answer: '));
  expect(folded.slice(0, folded.indexOf('\n\n')).replace(/\s+/g, ' ')).toContain(INCONCLUSIVE_CHECKS.join(', '));
  expect(run.report?.verdict).toBe('inconclusive');
  expect(run.report?.reason).toContain(status);
  const cases = junitCases(run);
  for (const check of INCONCLUSIVE_CHECKS) {
    for (const operationId of OPERATIONS) {
      const outcome = run.report!.outcomes.find((o) => o.check === check && o.operationId === operationId);
      expect(outcome).toMatchObject({ status: 'skipped', skipCause: 'no-evidence' });
      expect(outcome!.skipReason).toContain(status);
      expect(run.stdout.split('\n').filter((l) => l.startsWith(`${outcome!.skipReason}: `) && /: \d+ requests?$/.test(l))).toHaveLength(1);
      expect(cases.get(`${operationId}/${check}`)?.skipped?.['@_message']).toMatch(new RegExp(`^no evidence: .*${status}`));
    }
  }
}

/** Exit 2: the verdict alone on stdout, once, matching `message`, nothing on stderr, both reports saying "could not run". */
function expectCouldNotRun(run: Run, message: RegExp): void {
  expect(run.status).toBe(2);
  // The verdict line last: alone when it fits, else under the whole reason (why:).
  expect(run.stdout).toMatch(/^(why: [^\n]*\n)?COULD NOT RUN: [^\n]*\n$/);
  expect(run.stdout).toMatch(message);
  expect(run.stderr).toBe('');
  expect(run.report?.verdict).toBe('could not run');
  expect(run.report?.reason).toMatch(message);
  const cases = junitCases(run);
  expect(cases.get('tempmon contract/run')?.error?.['@_message']).toMatch(message);
}

// --- What an echoing target sends back: the key in the forms a server may echo it in.

const PAD = 'p'.repeat(70);
const hex4 = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** Raw JSON string literals (escapes as written in the body) holding `key`, most after 70 characters of padding. */
const echoForms = (key: string): Record<string, string> => ({
  echo_literal: JSON.stringify(PAD + key),
  echo_json_escaped: `"${PAD}${[...key].map((c) => `\\u${hex4(c)}`).join('')}"`,
  echo_json_mixed: `"${PAD}${[...key].map((c, i) => (i % 2 ? c : `\\u${hex4(c).toUpperCase()}`)).join('')}"`,
  echo_base64: JSON.stringify(base64(key)),
  echo_base64_offset1: JSON.stringify(base64(`x${key}`)),
  echo_base64_offset2: JSON.stringify(base64(`xy${key}`)),
  echo_base64_padded: JSON.stringify(base64(PAD + key)),
  echo_base64url: JSON.stringify(Buffer.from(key).toString('base64url')),
  echo_url_encoded: JSON.stringify(PAD + [...Buffer.from(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  echo_uri_component: JSON.stringify(`${PAD}?key=${encodeURIComponent(key)}`),
});
/** `value` as JSON text, with every `"@@name@@"` string replaced by the raw literal `raw[name]`. */
const serialize = (value: unknown, raw: Record<string, string>) =>
  JSON.stringify(value).replace(/"@@(\w+)@@"/g, (whole, name: string) => raw[name] ?? whole);
const placeholders = (raw: Record<string, string>) => Object.fromEntries(Object.keys(raw).map((name) => [name, `@@${name}@@`]));

const problem = (response: ServerResponse, status: number, body: Record<string, unknown>) => {
  response.writeHead(status, { 'content-type': 'application/problem+json' });
  response.end(JSON.stringify({ status, ...body }));
};

describe('the leak finder', () => {
  it('finds every form an echoing target sends, in any letter case, and nothing in clean text', () => {
    const raws = {
      ...echoForms(KEY),
      upper: KEY.toUpperCase(),
      swapped: swapCase(KEY),
      xml: `&lt;${KEY.slice(3, 12).replace('.', '&#46;')}&gt;`,
      half: KEY.slice(-8),
    };
    for (const [name, raw] of Object.entries(raws)) expect(findLeaks(`{"v":${raw}}`, KEY), name).not.toEqual([]);
    expect(findLeaks(`curl -i -H "x-api-key: ${PLACEHOLDER}" '${PAD}' ${KEY.slice(0, 7)} ${base64(KEY).slice(0, 7)}`, KEY)).toEqual([]);
  });
});

describe('hostile targets, over real HTTP, against the built CLI', () => {
  describe('a target answering 503 text/html to every request', () => {
    const down = () =>
      listen((_request, response) => {
        response.writeHead(503, { 'content-type': 'text/html', 'retry-after': '120' });
        response.end('<html><body>Down for maintenance</body></html>');
      });

    it('is not conformant: not_a_server_error fails', async () => {
      const target = await down();
      const run = await contract(target.url, SMALL);
      expectNotConformant(run, 'not_a_server_error', '503');
      expectNoLeak(run);
    });

    it('leaves checks that need answers inconclusive, never passed (the vacuous pass of issue 9)', async () => {
      const target = await down();
      const run = await contract(target.url, [...SMALL, '--checks', INCONCLUSIVE_CHECKS.join(',')]);
      expectInconclusive(run, '503');
      expectNoLeak(run);
    });
  });

  describe('a target redirecting every request to another origin (302), the key in the Location', () => {
    const redirecting = async () => {
      const other = await listen((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('[]');
      });
      const target = await listen((request, response) => {
        const key = request.headers['x-api-key'];
        const url = new URL(request.url ?? '/', other.url);
        if (typeof key === 'string') url.searchParams.set('session', key);
        response.writeHead(302, { location: url.href });
        response.end();
      });
      return { target, other };
    };

    it('is not conformant: status_code_conformance fails, the redirect never followed', async () => {
      const { target, other } = await redirecting();
      const run = await contract(target.url, SMALL);
      expectNotConformant(run, 'status_code_conformance', '302');
      expect(run.stdout).toContain('not followed');
      expect(target.requests()).toBeGreaterThan(0);
      expect(other.requests()).toBe(0);
      expectNoLeak(run);
    });

    it('leaves checks that need answers inconclusive', async () => {
      const { target, other } = await redirecting();
      const run = await contract(target.url, [...SMALL, '--checks', INCONCLUSIVE_CHECKS.join(',')]);
      expectInconclusive(run, '302');
      expect(other.requests()).toBe(0);
      expectNoLeak(run);
    });
  });

  it('a 200 application/json body that never ends: the run ends within 60 s, in bounded memory', async () => {
    const target = await listen(endlessJson);
    // The defaults, but for the report files: what a CI job would run. The kit's own peak against a small
    // conformant target, measured in the same test, is the baseline (its size varies with the machine).
    const baseline = await contract((await listen(fromFetch(app.fetch))).url, [], { measureRss: true });
    const run = await contract(target.url, [], { measureRss: true });
    console.info(
      `endless body: ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB (${run.rssSource}; ${baseline.peakRssMb?.toFixed(0) ?? '?'} MB against a small conformant target), ${target.requests()} requests`,
    );
    expect(run.seconds).toBeLessThan(60);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.verdictLine).toMatch(/^NOT conformant/);
    expect(run.report?.verdict).toBe('not conformant');
    const received = run.report!.outcomes.filter((o) => o.check === 'response_received');
    expect(received.map((o) => o.status)).toEqual(['failed', 'failed']);
    expect(received[0]!.failures[0]!.message).toMatch(/body larger than \d+ bytes/);
    expect(junitCases(run).get('listAlerts/response_received')?.failure?.['@_message']).toMatch(/body larger than/);
    // Read whole, the body would be gigabytes within the 60 s; cut at its cap, it costs the kit little more than a
    // small listing does.
    if (run.peakRssMb === undefined || baseline.peakRssMb === undefined) console.warn(`peak RSS not asserted: ${run.rssSource}`);
    else expect(run.peakRssMb - baseline.peakRssMb, `peak RSS, by ${run.rssSource}`).toBeLessThan(100);
    expectNoLeak(run);
  }, 90_000);

  it('a target echoing the key in its records, headers and errors: literal, JSON-escaped, base64, URL-encoded', async () => {
    let echoed = 0;

    const target = await listen(async (request: IncomingMessage, response: ServerResponse) => {
      const fetched = toRequest(request);
      const key = fetched.headers.get('x-api-key') ?? new URL(fetched.url).searchParams.get('x-api-key') ?? '';
      const answer = await app.fetch(fetched);
      if (!key || !(answer.headers.get('content-type') ?? '').includes('json')) return writeResponse(response, answer);
      echoed += 1;
      const raw = echoForms(key);
      const headers = new Headers(answer.headers);
      headers.set('x-echo-key', key);
      headers.set('x-echo-key-base64', base64(key));
      // And in a header's name: the longest part of the key a name may hold.
      const namePart = key.split(/[^\w!#$%&'*+.^`|~-]/).sort((a, b) => b.length - a.length)[0] ?? '';
      if (namePart.length >= 8) headers.set(`x-echo-${namePart}`, 'name');
      const body = (await answer.json()) as unknown;
      const echoedBody = Array.isArray(body)
        ? body.map((record: Record<string, unknown>) => ({
            ...record,
            // A plain string field: a search term the kit picks from it carries the key into a request URL.
            code: `${String(record.code ?? 'X')} ${key}`,
            // A uuid field breaking its format: the failure shows the value, cut in the middle of the key.
            handling_unit_id: PAD + key,
            sites_id: [...((record.sites_id as string[] | undefined) ?? []), key],
            ...placeholders(raw),
          }))
        : { ...(body as object), detail: `the key ${key} cannot do this`, instance: `not a uri ${PAD}${key}`, ...placeholders(raw) };
      return writeResponse(response, new Response(null, { status: answer.status, headers }), serialize(echoedBody, raw));
    });
    const run = await contract(target.url, SMALL);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.verdictLine).toMatch(/^NOT conformant/);
    expect(run.report?.verdict).toBe('not conformant');
    expect(junitCases(run).get('listAlerts/response_schema_conformance')?.failure).toBeDefined();
    // The echoes did reach the reports (as the placeholder): the redaction was put to the test.
    expect(echoed).toBeGreaterThan(10);
    expect(run.stdout).toMatch(/handling_unit_id must match format "uuid"/);
    expect(run.json!.split(PLACEHOLDER).length).toBeGreaterThan(10);
    expect(run.json).toContain(`"${PLACEHOLDER}": "name"`); // the header whose name held the key
    expectNoLeak(run);
  });

  it('a target accepting any key and echoing it: the variants the kit sends (other letter case, edits) are never shown', async () => {
    const target = await listen(async (request, response) => {
      const fetched = toRequest(request);
      const sent = fetched.headers.get('x-api-key') ?? '';
      const headers = new Headers(fetched.headers);
      headers.set('x-api-key', KEY);
      const answer = await app.fetch(new Request(fetched.url, { headers }));
      const echoHeaders = new Headers(answer.headers);
      echoHeaders.set('x-echo-key', sent);
      const records = (await answer.json()) as Record<string, unknown>[];
      const body = records.map((record) => ({ ...record, code: `${String(record.code ?? 'X')} ${sent}` }));
      return writeResponse(response, new Response(null, { status: answer.status, headers: echoHeaders }), JSON.stringify(body));
    });
    // Seed 3 tries the key in swapped case (which, shown, would give the key back) and in lower case.
    const run = await contract(target.url, [...SMALL, '--seed', '3', '--checks', 'ignored_auth']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.verdictLine).toMatch(/^NOT conformant/);
    expect(run.report?.verdict).toBe('not conformant');
    expect(run.stdout).toMatch(/ERROR: the key in swapped case was accepted/);
    expect(run.stdout).toMatch(/ERROR: the key with character \d+ of \d+ edited was accepted/);
    expect(junitCases(run).get('listAlerts/ignored_auth')?.failure).toBeDefined();
    expectNoLeak(run);
  });

  describe('misconfigured runs: exit 2, one line on stderr, both report files written', () => {
    it('every listing 404 (the API is under /v1, the target lacks it): the base-URL hint', async () => {
      const target = await listen(async (request, response) => {
        const url = request.url ?? '/';
        if (!url.startsWith('/v1/')) return problem(response, 404, { title: 'Not Found', detail: `no route for ${url}` });
        const fetched = toRequest(request);
        return writeResponse(response, await app.fetch(new Request(fetched.url.replace('/v1/', '/'), { headers: fetched.headers })));
      });
      const run = await contract(target.url, SMALL);
      expectCouldNotRun(run, /every listing request got 404/);
      expect(run.stdout).toContain(`${target.url}/alert`);
      expect(run.stdout).toMatch(/is --target the API's base URL\?.*\/v1/);
      expectNoLeak(run);
      // The hint is right: with /v1 the same target is reached and judged.
      const fixed = await contract(`${target.url}/v1`, [...SMALL, '--checks', 'not_a_server_error']);
      expect(fixed.status).toBe(0);
      expect(fixed.verdictLine).toBe('conformant');
      expectNoLeak(fixed);
    });

    it('a target refusing the key (401 to everything, echoing it): key refused', async () => {
      const target = await listen((request, response) =>
        problem(response, 401, { title: 'Unauthorized', detail: `unknown key ${String(request.headers['x-api-key'])}` }),
      );
      const run = await contract(target.url, SMALL);
      expectCouldNotRun(run, /refused the API key \(401\)/);
      expect(run.stdout).toContain('TEMPMON_API_KEY');
      expectNoLeak(run);
    });

    it('a JUnit path in a folder that does not exist: refused before any request', async () => {
      const target = await listen(fromFetch(app.fetch));
      const run = await contract(target.url, ['--junit', '/nonexistent-dir/x.xml', ...SMALL], { reports: false });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('COULD NOT RUN: --junit /nonexistent-dir/x.xml cannot be written: no such file or directory\n');
      expect(run.stderr).toBe('');
      expect(existsSync('/nonexistent-dir/x.xml')).toBe(false);
      expect(target.requests()).toBe(0);
      expectNoLeak(run);
    });
  });

  it('a target on port 6000 (a port fetch refuses) is reached', async (context) => {
    if (!(await portFree(6000))) context.skip('port 6000 on 127.0.0.1 is in use here: cannot serve the mock on it');
    const target = await listen(fromFetch(app.fetch), 6000);
    const run = await contract(target.url, [...SMALL, '--checks', 'not_a_server_error,status_code_conformance,stable_order']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.verdictLine).toBe('conformant');
    expect(run.report?.verdict).toBe('conformant');
    expect(run.stdout.match(/^(PASS|FAIL|WARN|SKIP) \w+/gm)).toEqual([
      'PASS stable_order',
      'PASS not_a_server_error',
      'PASS status_code_conformance',
    ]);
    expect(target.requests()).toBeGreaterThan(0);
    expect([...junitCases(run).values()].filter((c) => c.failure || c.skipped || c.error)).toEqual([]);
    expectNoLeak(run);
  });

  it('a gateway answering 429 with Retry-After: 1 to every 10th request: retried, the run completes', async () => {
    let seen = 0;
    let limited = 0;
    const target = await listen(async (request, response) => {
      seen += 1;
      if (seen % 10 === 0) {
        limited += 1;
        response.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' });
        return void response.end(JSON.stringify({ title: 'Too Many Requests', status: 429 }));
      }
      return writeResponse(response, await app.fetch(toRequest(request)));
    });
    const run = await contract(target.url, [
      ...SMALL,
      '--checks',
      'positive_data_acceptance,page_size_conformance,stable_order,not_a_server_error,status_code_conformance',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.verdictLine).toBe('conformant');
    expect(limited).toBeGreaterThan(0);
    const retried = Number(/^\d+ warnings?, \d+ requests \((\d+) retried after 429\)/m.exec(run.stdout)?.[1]);
    expect(retried).toBe(limited);
    expect(run.report?.summary.retried).toBe(limited);
    expect(run.report?.verdict).toBe('conformant');
    expect([...junitCases(run).values()].filter((c) => c.failure || c.skipped || c.error)).toEqual([]);
    expectNoLeak(run);
  });
});
