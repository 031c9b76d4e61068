import { ALL_CHECKS } from '../contract/checks/index.ts';
import { unrunReport } from '../contract/grade.ts';
import { verdictLine } from '../contract/reports/console-report.ts';
import { redact } from '../secrets/redact.ts';
import { CONTRACT_DEFAULTS, runContract } from '../contract/run-contract.ts';
import { openHarLog, withHarEntries, type HarLog } from '../contract/reports/har-log.ts';
import { ContractSetupError, type ContractReport, type Exchange } from '../contract/types.ts';
import type { Place } from '../contract/exchange-recorder.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { CliError, integerOption, parseOptions } from './cli-error.ts';
import { kitVersion } from './kit-version.ts';
import { parseHeader } from './parse-header.ts';
import { reportWriters } from './report-files.ts';

/** Help of `tempmon contract`. */
export const CONTRACT_HELP = `Usage: tempmon contract --target URL [options]

Checks a running server against spec/openapi.yaml.
Exit code 0: conformant (every requested check evaluated, none failed);
          1: violations found, or inconclusive (a check could not be evaluated from the target's answers);
          2: could not run (bad arguments, target unreachable, key refused, every listing 404).

Options:
  --target URL              base URL of the server under test (required)
  --api-key KEY             the key to send; better: set TEMPMON_API_KEY in the environment
  --strict                  fail on warnings too (assumptions of the spec, undocumented fields)
  --checks a,b              run only these checks (see the list below)
  --seed N                  seed of the generated requests (default: random, printed; replays a run)
  --examples N              random requests per exploration and listing, after the covering set (default ${CONTRACT_DEFAULTS.examples})
  --junit FILE              also write a JUnit XML report (written on every exit, 2 included)
  --json FILE               also write a JSON report (written on every exit, 2 included)
  --har FILE                also write every request and response as HAR 1.2, as the run goes (valid on every
                            exit, 2 included; redacted as the reports are; bodies over 64 KiB cut)
  --timeout MS              per request, body included (default ${CONTRACT_DEFAULTS.timeoutMs})
  --max-duration SECONDS    the whole run's deadline (default ${CONTRACT_DEFAULTS.maxDurationMs / 1000}); checks not reached are skipped
  --max-pages N             pages read when enumerating a listing (default ${CONTRACT_DEFAULTS.maxPages})
  --max-response-time MS    fail any response slower than this (opt-in check max_response_time)
  --rate N                  send at most N requests per second (for real gateways)
  --concurrency N           requests in flight at once (default ${CONTRACT_DEFAULTS.concurrency}; from the first 429 on, one at a time)
  --max-retries N           retries of a 429, honouring Retry-After (default 2)
  --header 'Name: value'    extra header on every request (repeatable), e.g. for a gateway; values are redacted
  --spec FILE               another copy of the spec (default: the kit's spec/openapi.yaml)
  -h, --help                show this help

The key never appears in any output: requests are shown with $TEMPMON_API_KEY.

Checks:
${ALL_CHECKS.map((c) => `  ${c.name.padEnd(30)} ${c.description}`).join('\n')}`;

const CONTRACT_OPTIONS = {
  target: { type: 'string' },
  'api-key': { type: 'string' },
  strict: { type: 'boolean' },
  checks: { type: 'string' },
  seed: { type: 'string' },
  examples: { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  har: { type: 'string' },
  timeout: { type: 'string' },
  'max-duration': { type: 'string' },
  'max-pages': { type: 'string' },
  'max-response-time': { type: 'string' },
  rate: { type: 'string' },
  concurrency: { type: 'string' },
  'max-retries': { type: 'string' },
  header: { type: 'string', multiple: true },
  spec: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs `tempmon contract`; resolves with the exit code. */
export async function contractCommand(args: readonly string[], log: (text: string) => void = console.log): Promise<number> {
  const values = couldNotRun(log, process.env.TEMPMON_API_KEY, () => parseOptions('contract', args, CONTRACT_OPTIONS));
  if (values.help) {
    log(CONTRACT_HELP);
    return 0;
  }
  const target = values.target as string | undefined;
  const strict = values.strict === true;
  const apiKey = (values['api-key'] as string | undefined) ?? process.env.TEMPMON_API_KEY;
  // Every raw --header value is a secret, even one that does not parse.
  const rawHeaders = (values.header as string[] | undefined) ?? [];
  const secrets = { ...(apiKey ? { apiKey } : {}), headerValues: rawHeaders.map(headerSecret) };
  // Checked before the first request: a report path that cannot be written must not cost a whole run.
  const writers = reportWriters(
    { junit: values.junit as string | undefined, json: values.json as string | undefined, har: values.har as string | undefined },
    secrets,
  );
  let har: HarLog | undefined;
  // With --har, every failure names the entries of the HAR it rests on.
  const shown = (report: ContractReport) => (har ? withHarEntries(report, har) : report);
  const unrun = (reason: string) => {
    const report = unrunReport(target ?? '(none)', strict, reason);
    // The verdict is the last line on stdout of every run, this one's too; stderr still says why.
    log(redact(verdictLine(report), secrets));
    writers.write(report);
  };

  try {
    if (writers.problem) throw writers.problem;
    if (writers.paths.har) har = openHarLog(writers.paths.har, kitVersion());
    const headerValues = rawHeaders.map(parseHeader);
    if (!target) throw new CliError('--target URL is required (see tempmon contract --help)');
    if (!/^https?:\/\/[^/]/.test(target) || !URL.canParse(target))
      throw new CliError(`--target must be an http(s) URL, got ${JSON.stringify(target)}`);
    if (!apiKey) throw new CliError('no API key: set TEMPMON_API_KEY or pass --api-key');
    const checks =
      typeof values.checks === 'string'
        ? values.checks
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean)
        : undefined;
    const number = (
      name: 'timeout' | 'max-pages' | 'max-response-time' | 'seed' | 'examples' | 'max-duration' | 'rate' | 'concurrency' | 'max-retries',
      min: number,
      max: number,
    ) => {
      const raw = values[name];
      return typeof raw === 'string' ? integerOption(name, raw, min, max) : undefined;
    };
    const timeoutMs = number('timeout', 1, 600_000);
    const maxPages = number('max-pages', 1, 1_000_000);
    const maxResponseTimeMs = number('max-response-time', 1, 600_000);
    const seed = number('seed', 0, 2 ** 31 - 1);
    const examples = number('examples', 1, 100_000);
    const maxDuration = number('max-duration', 1, 86_400);
    const rate = number('rate', 1, 100_000);
    const concurrency = number('concurrency', 1, 64);
    const maxRetries = number('max-retries', 0, 20);

    const spec = loadSpec(typeof values.spec === 'string' ? values.spec : undefined);
    const report = await runContract({
      target,
      apiKey,
      document: spec.document,
      strict,
      headers: Object.fromEntries(headerValues),
      ...(checks ? { checks } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(maxPages ? { maxPages } : {}),
      ...(maxResponseTimeMs ? { maxResponseTimeMs } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(examples ? { examples } : {}),
      ...(maxDuration ? { maxDurationMs: maxDuration * 1000 } : {}),
      ...(rate ? { rate } : {}),
      ...(concurrency ? { concurrency } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
      ...(har ? { record: (exchange: Exchange, place: Place) => har?.add(exchange, place) } : {}),
    });
    // Closed before the reports: the entries' indices are final once the HAR is in the run's order.
    har?.close();
    const final = shown(report);
    writers.write(final);
    log(writers.console(final));
    return exitCode(report);
  } catch (error) {
    if (error instanceof ContractSetupError) {
      const line = error.hint ? `${error.message} (${error.hint})` : error.message;
      unrun(line);
      throw new ContractSetupError(line);
    }
    // Whatever stopped the run, CI's report step gets a file saying why (a crash of the kit included).
    unrun(
      error instanceof Error && (error.name === 'CliError' || error.name === 'SpecError')
        ? error.message
        : `unexpected error in the kit: ${String(error)}`,
    );
    throw error;
  } finally {
    har?.close();
  }
}

/** Runs `parse`; when it throws, prints the verdict line of a run that could not run (redacted) and rethrows. */
function couldNotRun<T>(log: (text: string) => void, apiKey: string | undefined, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    log(redact(verdictLine(unrunReport('(none)', false, (error as Error).message)), { ...(apiKey ? { apiKey } : {}), headerValues: [] }));
    throw error;
  }
}

/** What of a `--header` to keep out of every output: its value, or all of it when it does not parse. */
function headerSecret(raw: string): string {
  try {
    return parseHeader(raw)[1];
  } catch {
    return raw;
  }
}

/** 0 conformant; 1 violations or inconclusive (the target is there but failing); 2 could not run. */
const exitCode = (report: ContractReport): number => (report.verdict === 'conformant' ? 0 : report.verdict === 'could not run' ? 2 : 1);

export { CliError };
