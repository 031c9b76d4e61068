import { toCurl } from './curl.ts';
import { harLine, loadNote, replayCommand } from './console-report.ts';
import { redact, type Secrets } from '../../secrets/redact.ts';
import type { CheckOutcome, ContractReport, Failure, RunPlan } from '../types.ts';

// XML 1.0 forbids most control characters even when escaped; a hostile body must not break the file.
const escapeXml = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this removes
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

const describe = (f: Failure, target: string, plan: RunPlan | undefined) =>
  [
    `${f.severity.toUpperCase()}: ${f.message}${(f.occurrences ?? 1) > 1 ? ` (${f.occurrences} times)` : ''}`,
    ...(f.expected !== undefined ? [`expected: ${f.expected}`] : []),
    ...(f.actual !== undefined ? [`actual:   ${f.actual}`] : []),
    ...(f.exchange ? [`reproduce: ${toCurl(f.exchange.request)}${loadNote(f.exchange)}`] : []),
    ...(f.harEntries ? [`exchanges: ${harLine(f.harEntries)}`] : []),
    ...(f.seed !== undefined ? [`replay: ${replayCommand(target, f.seed, f.check, plan)}`] : []),
  ].join('\n');

function testcase(outcome: CheckOutcome, target: string, plan: RunPlan | undefined): string {
  const open = `    <testcase classname="${escapeXml(outcome.operationId)}" name="${escapeXml(outcome.check)}">`;
  const details = escapeXml(outcome.failures.map((f) => describe(f, target, plan)).join('\n\n'));
  switch (outcome.status) {
    case 'skipped':
      return `${open}<skipped message="${escapeXml(`${outcome.skipCause === 'no-evidence' ? 'no evidence: ' : ''}${outcome.skipReason ?? ''}`)}"/></testcase>`;
    case 'failed':
      return `${open}\n      <failure message="${escapeXml(outcome.failures[0]?.message ?? 'failed')}" type="${outcome.failures.some((f) => f.severity === 'error') ? 'error' : 'warning'}">${details}</failure>\n    </testcase>`;
    // A warning, or a pass with a note: shown, not failed.
    case 'warned':
    case 'passed':
      return outcome.failures.length > 0 ? `${open}\n      <system-out>${details}</system-out>\n    </testcase>` : `${open}</testcase>`;
  }
}

/** JUnit XML for CI systems: one testsuite per operation, one testcase per check. *
 * @example
 * writeFileSync('contract.xml', junitReport(report, { apiKey: key, headerValues: [] }));
 */
export function junitReport(report: ContractReport, secrets: Secrets): string {
  const operations = [...new Set(report.outcomes.map((o) => o.operationId))];
  const suites = operations.map((operationId) => {
    const outcomes = report.outcomes.filter((o) => o.operationId === operationId);
    const count = (status: CheckOutcome['status']) => outcomes.filter((o) => o.status === status).length;
    return [
      `  <testsuite name="${escapeXml(operationId)}" tests="${outcomes.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}">`,
      ...outcomes.map((o) => testcase(o, report.target, report.plan)),
      '  </testsuite>',
    ].join('\n');
  });
  if (report.verdict === 'could not run') {
    // CI's report upload still gets a file: one errored test saying why the run could not run.
    suites.push(
      `  <testsuite name="tempmon contract" tests="1" failures="0" errors="1" skipped="0">\n    <testcase classname="tempmon contract" name="run"><error message="${escapeXml(report.reason ?? 'could not run')}"/></testcase>\n  </testsuite>`,
    );
  }
  // JUnit counts testcases: one per check and listing.
  const [failed, skipped] = (['failed', 'skipped'] as const).map((status) => report.outcomes.filter((o) => o.status === status).length);
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="tempmon contract ${escapeXml(report.target)}" tests="${report.outcomes.length || 1}" failures="${failed}" errors="${report.verdict === 'could not run' ? 1 : 0}" skipped="${skipped}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
  return redact(xml, secrets);
}
