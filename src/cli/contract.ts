import { writeFileSync } from 'node:fs';
import { ALL_CHECKS } from '../contract/checks/index.ts';
import { consoleReport } from '../contract/reports/console-report.ts';
import { jsonReport } from '../contract/reports/json-report.ts';
import { junitReport } from '../contract/reports/junit-report.ts';
import { runContract } from '../contract/run-contract.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { CliError, integerOption, parseOptions } from './cli-error.ts';

/** Help of `tempmon contract`. */
export const CONTRACT_HELP = `Usage: tempmon contract --target URL [options]

Checks a running server against spec/openapi.yaml. Exit code 0: conformant; 1: violations found;
2: could not run (bad arguments, target unreachable).

Options:
  --target URL              base URL of the server under test (required)
  --api-key KEY             the key to send; better: set TEMPMON_API_KEY in the environment
  --strict                  fail on warnings too (assumptions of the spec, undocumented fields)
  --checks a,b              run only these checks (see the list below)
  --junit FILE              also write a JUnit XML report
  --json FILE               also write a JSON report
  --timeout MS              per request, body included (default 10000)
  --max-pages N             pages read when enumerating a listing (default 50)
  --max-response-time MS    fail any response slower than this
  --header 'Name: value'    extra header on every request (repeatable), e.g. for a gateway
  --spec FILE               another copy of the spec (default: the kit's spec/openapi.yaml)
  -h, --help                show this help

The key never appears in any output: requests are shown with $TEMPMON_API_KEY.

Checks:
${ALL_CHECKS.map((c) => `  ${c.name.padEnd(30)} ${c.description}`).join('\n')}`;

/** Runs `tempmon contract`; resolves with the exit code. */
export async function contractCommand(args: readonly string[], log: (text: string) => void = console.log): Promise<number> {
  const values = parseOptions('contract', args, {
    target: { type: 'string' },
    'api-key': { type: 'string' },
    strict: { type: 'boolean' },
    checks: { type: 'string' },
    junit: { type: 'string' },
    json: { type: 'string' },
    timeout: { type: 'string' },
    'max-pages': { type: 'string' },
    'max-response-time': { type: 'string' },
    header: { type: 'string', multiple: true },
    spec: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    log(CONTRACT_HELP);
    return 0;
  }
  const target = values.target as string | undefined;
  if (!target) throw new CliError('--target URL is required (see tempmon contract --help)');
  if (!/^https?:\/\/[^/]/.test(target) || !URL.canParse(target)) throw new CliError(`--target must be an http(s) URL, got ${JSON.stringify(target)}`);
  const apiKey = (values['api-key'] as string | undefined) ?? process.env.TEMPMON_API_KEY;
  if (!apiKey) throw new CliError('no API key: set TEMPMON_API_KEY or pass --api-key');
  const headers = Object.fromEntries(((values.header as string[] | undefined) ?? []).map(parseHeader));
  const checks = typeof values.checks === 'string' ? values.checks.split(',').map((c) => c.trim()).filter(Boolean) : undefined;
  const number = (name: 'timeout' | 'max-pages' | 'max-response-time', max: number) => {
    const raw = values[name];
    return typeof raw === 'string' ? integerOption(name, raw, 1, max) : undefined;
  };
  const timeoutMs = number('timeout', 600_000);
  const maxPages = number('max-pages', 1_000_000);
  const maxResponseTimeMs = number('max-response-time', 600_000);

  const spec = loadSpec(typeof values.spec === 'string' ? values.spec : undefined);
  const report = await runContract({
    target,
    apiKey,
    document: spec.document,
    strict: values.strict === true,
    headers,
    ...(checks ? { checks } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(maxPages ? { maxPages } : {}),
    ...(maxResponseTimeMs ? { maxResponseTimeMs } : {}),
  });
  const secrets = { apiKey, headerValues: Object.values(headers) };
  log(consoleReport(report, secrets));
  if (typeof values.junit === 'string') write(values.junit, junitReport(report, secrets));
  if (typeof values.json === 'string') write(values.json, jsonReport(report, secrets));
  return report.conformant ? 0 : 1;
}

function parseHeader(raw: string): [string, string] {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(raw);
  if (!match) throw new CliError(`--header must look like 'Name: value', got ${JSON.stringify(raw.split(':')[0])}…`);
  return [match[1]!, match[2]!];
}

function write(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new CliError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
