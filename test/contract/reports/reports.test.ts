import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { consoleReport } from '../../../src/contract/reports/console-report.ts';
import { jsonReport } from '../../../src/contract/reports/json-report.ts';
import { junitReport } from '../../../src/contract/reports/junit-report.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { LISTINGS, spec } from '../../helpers.ts';

const SECRET = 'sk_live_9a8b7c6d5e4f';
const GATEWAY = 'gw-token-1f2e3d';
const app = createApp({ spec, apiKeys: [SECRET], dataset: { seed: 9, counts: { alerts: 40, sensors: 12 } } });
const secrets = { apiKey: SECRET, headerValues: [GATEWAY] };

/** A target that breaks several checks and echoes the key back in bodies and headers, as careless servers do. */
const leaky = async (request: Request) => {
  const key = request.headers.get('x-api-key') ?? '';
  const headers = new Headers(request.headers);
  headers.set('x-api-key', SECRET); // auth ignored
  const response = await app.fetch(new Request(request.url.replace('/v1/', '/'), { headers }));
  const text = (await response.text()).replace('"id"', `"echo":"${key}","id"`);
  const out = new Headers(response.headers);
  out.set('x-debug-key', key);
  if (response.status === 200) out.set('content-type', 'text/plain');
  // A bad page crashes this server, with the key in the stack trace.
  const status = new URL(request.url).searchParams.get('page') === '0' ? 500 : response.status;
  return new Response(status === 500 ? `Error: bad page for key ${key}` : text, { status, headers: out });
};

const report = await runContract({
  target: 'http://target.test/v1',
  apiKey: SECRET,
  document: spec.document,
  headers: { 'x-gateway-token': GATEWAY },
  fetch: leaky,
});

describe('reports', () => {
  const outputs = { console: consoleReport(report, secrets), junit: junitReport(report, secrets), json: jsonReport(report, secrets) };

  it.each(Object.keys(outputs))('never contain the key or a --header value (%s)', (format) => {
    const text = outputs[format as keyof typeof outputs];
    expect(report.conformant).toBe(false);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(GATEWAY);
    expect(text).toContain('$TEMPMON_API_KEY');
  });

  it('console: groups by check, shows expected, actual and a curl command, ends with the summary', () => {
    const text = outputs.console;
    expect(text).toMatch(/^FAIL ignored_auth: /m);
    expect(text).toMatch(/listAlerts ERROR: no key was accepted\n {4}expected: 401 or 403 without records\n {4}actual: {3}200 /);
    expect(text).toContain(`reproduce: curl -i -H 'x-gateway-token: <redacted>' 'http://target.test/v1/alert'`);
    expect(text).toContain(
      `curl -i -H 'x-gateway-token: <redacted>' -H "x-api-key: $TEMPMON_API_KEY" 'http://target.test/v1/alert?page=0'`,
    );
    const { checks, passed, part, warned, failed, skipped } = report.summary;
    // One unit, checks: each check is in one of the counts.
    expect(passed + part + warned + failed + skipped).toBe(checks);
    expect(checks).toBe(new Set(report.outcomes.map((o) => o.check)).size);
    // The summary, then the timing section, then the verdict.
    const lines = text.split('\n');
    const timing = lines.findIndex((l) => l.startsWith('timing: '));
    // Per kind (each listing's path); and what was sent again alone, if anything was (the 500 to page=0, when it came
    // with others in flight).
    const kind = new RegExp(`^ {2}(${[...LISTINGS.map((op) => op.path), 'other paths', 'failed under load'].join('|')})`);
    expect(lines.slice(timing + 1, -2).every((l) => kind.test(l))).toBe(true);
    // A reason too long for the verdict line is whole just above it.
    expect(lines.at(-2)).toBe(`why: ${report.reason}`);
    expect(lines.at(-1)!.length).toBeLessThanOrEqual(200);
    expect(lines.at(timing - 3)).toBe(
      `${checks} checks: ${passed} passed${part ? `, ${part} passed in part (PART)` : ''}${warned ? `, ${warned} with warnings only (WARN)` : ''}, ${failed} failed, ${skipped} skipped`,
    );
    expect(lines.at(timing - 2)).toMatch(/requests; seed \d+ \(--seed \d+ replays the generated requests\)$/);
    // The pairs of parameter classes the covering set judged, per listing, as the JSON report's coverage has them.
    const pairs = report.coverage!.map((c) => `${c.operationId} ${c.pairs!.covered} of ${c.pairs!.total}`).join(', ');
    expect(lines.at(timing - 1)).toBe(`pairs of parameter classes covered: ${pairs}`);
    expect(JSON.parse(outputs.json).coverage.map((c: { pairs: unknown }) => c.pairs)).toEqual(report.coverage!.map((c) => c.pairs));
    expect(text.split('\n').at(-1)).toMatch(/^NOT conformant/);
  });

  it('a run trimmed to fit its time: the seed line and every replay command carry the flags that give its plan', () => {
    const plan = {
      examples: { asked: 50, used: 1 },
      covering: { asked: 112, used: 26 },
      specialTerms: { asked: 50, used: 11 },
      estimateMs: 200_000,
      why: 'examples 50 -> 1, covering set 112 -> 26, special terms 50 -> 11: a search takes 3.6 s here',
    };
    const trimmed = { ...report, plan };
    const flags = '--examples 1 --covering 26 --special-terms 11';
    const text = consoleReport(trimmed, secrets);
    expect(text).toContain(`(--seed ${report.seed} ${flags} replays the generated requests)`);
    expect(text).toContain(`planned to fit --max-duration: ${plan.why}`);
    const replays = [...text.matchAll(/replay: +(.*)/g), ...junitReport(trimmed, secrets).matchAll(/replay: (.*)/g)].map((m) => m[1]);
    expect(replays.length).toBeGreaterThan(1);
    for (const replay of replays) expect(replay).toMatch(new RegExp(`--seed \\d+ ${flags} --checks \\w+(</[-a-z]+>)?$`));
    // As the run was: the same flags replay it.
    expect(consoleReport(report, secrets)).not.toContain('--covering');
  });

  it('JUnit: well-formed XML with one testcase per check per operation', () => {
    expect(XMLValidator.validate(outputs.junit)).toBe(true);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(outputs.junit);
    const suites = xml.testsuites.testsuite as { '@_name': string; testcase: { '@_name': string; failure?: unknown }[] }[];
    expect(suites.map((s) => s['@_name'])).toEqual(LISTINGS.map((op) => op.operationId));
    for (const suite of suites) {
      expect(suite.testcase.map((t) => t['@_name'])).toEqual(
        report.outcomes.filter((o) => o.operationId === suite['@_name']).map((o) => o.check),
      );
    }
    // JUnit counts its testcases, one per check and listing.
    const failures = suites.flatMap((s) => s.testcase).filter((t) => t.failure !== undefined).length;
    expect(failures).toBe(report.outcomes.filter((o) => o.status === 'failed').length);
    expect(Number(xml.testsuites['@_failures'])).toBe(failures);
  });

  it('JSON: every outcome with its failures and reproducible requests', () => {
    const data = JSON.parse(outputs.json);
    expect(data.outcomes).toHaveLength(report.outcomes.length);
    const failure = data.outcomes.find((o: { check: string }) => o.check === 'not_a_server_error').failures[0];
    expect(failure.exchange.curl).toMatch(/^curl -i /);
    expect(failure.exchange.response.status).toBe(500);
    expect(data.summary).toEqual(report.summary);
  });

  it("the run's peak RSS, in MB, in the JSON report's timing and on the console's timing line", () => {
    const peak = JSON.parse(outputs.json).timing.peakRssMb;
    expect(Number.isInteger(peak)).toBe(true);
    // This process's own: more than its heap in use when the run ended, no more than its peak now (vitest's worker hosts the run).
    expect(peak).toBeGreaterThan(20);
    expect(peak).toBeLessThanOrEqual(Math.round(process.resourceUsage().maxRSS / 1024));
    expect(outputs.console.split('\n').find((l) => l.startsWith('timing: '))).toContain(`; peak RSS ${peak} MB`);
  });

  it('folds a failure repeated across responses into one line with a count', () => {
    const contentType = report.outcomes.find((o) => o.check === 'content_type_conformance' && o.operationId === 'listAlerts')!;
    expect(contentType.failures).toHaveLength(1);
    expect(contentType.failures[0]!.occurrences).toBeGreaterThan(10);
  });
});
