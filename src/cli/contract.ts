import { ALL_CHECKS } from '../contract/checks/index.ts';
import { unrunReport } from '../contract/grading/grade.ts';
import { verdictLines } from '../contract/reports/console-report.ts';
import { redact, type Secrets } from '../secrets/redact.ts';
import { CONTRACT_FLAGS, type ContractFlag } from '../contract/options/contract-flags.ts';
import type { ContractOptions } from '../contract/options/contract-options.ts';
import { runContract } from '../contract/run/run-contract.ts';
import { openHarLog, withHarEntries, type HarLog } from '../contract/reports/har-log.ts';
import { ContractSetupError, type ContractReport, type Exchange } from '../contract/types.ts';
import type { Place } from '../contract/types.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { flagHelp } from '../options/flag-help.ts';
import { parseFlags } from '../options/parse-flags.ts';
import { targetUrl } from './target-url.ts';
import { everyCommandFlags } from './every-command-flags.ts';
import { CliError, cliFail, integerOption } from './cli-error.ts';
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
${flagLines()}

The key never appears in any output: requests are shown with $TEMPMON_API_KEY.

Checks:
${ALL_CHECKS.map((c) => `  ${c.name.padEnd(30)} ${c.description}`).join('\n')}`;

/** The flags' lines of the help, each default shown in the flag's unit. */
function flagLines(): string {
  return flagHelp(
    CONTRACT_FLAGS.map((flag: ContractFlag) => {
      const shown = flag.default === undefined ? '' : String(flag.default / (flag.scale ?? 1));
      return { ...flag, help: flag.help.map((line) => line.replace('{default}', shown)) };
    }),
    28,
  );
}

/** The options of runContract that integer flags set, each checked against its bounds and scaled. */
function numericOptions(values: Record<string, unknown>): Partial<ContractOptions> {
  const options: Record<string, number> = {};
  for (const flag of CONTRACT_FLAGS as readonly ContractFlag[]) {
    const raw = values[flag.name];
    if (flag.integer && flag.option && typeof raw === 'string')
      options[flag.option] = integerOption(flag.name, raw, flag.integer.min, flag.integer.max) * (flag.scale ?? 1);
  }
  return options;
}

/**
 * Runs `tempmon contract`; resolves with the exit code. When the run cannot run (a bad option, no key, the target
 * unreachable, the key refused, every listing a 404), the reason is printed once, on stdout, the verdict line last
 * (see verdictLines), and the exit code is 2: a CI log that keeps stdout has the whole reason. Only a crash of the
 * kit itself is thrown (the CLI adds it to stderr).
 */
export async function contractCommand(args: readonly string[], log: (text: string) => void = console.log): Promise<number> {
  let values: ReturnType<typeof parseFlags>;
  try {
    values = parseFlags(args, CONTRACT_FLAGS, 'contract', cliFail, everyCommandFlags(args));
  } catch (error) {
    const key = process.env.TEMPMON_API_KEY;
    return couldNotRun(log, { ...(key ? { apiKey: key } : {}), headerValues: [] }, (error as Error).message);
  }
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

  try {
    if (writers.problem) throw writers.problem;
    if (writers.paths.har) har = openHarLog(writers.paths.har, kitVersion());
    const headerValues = rawHeaders.map(parseHeader);
    const targetChecked = targetUrl(target, 'contract');
    if (!apiKey) throw new CliError('no API key: set TEMPMON_API_KEY or pass --api-key');
    const checks =
      typeof values.checks === 'string'
        ? values.checks
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean)
        : undefined;
    const numeric = numericOptions(values);
    const spec = loadSpec(typeof values.spec === 'string' ? values.spec : undefined);
    const report = await runContract({
      target: targetChecked,
      apiKey,
      document: spec.document,
      strict,
      headers: Object.fromEntries(headerValues),
      ...(checks ? { checks } : {}),
      ...numeric,
      ...(har ? { record: (exchange: Exchange, place: Place) => har?.add(exchange, place) } : {}),
    });
    // Closed before the reports: the entries' indices are final once the HAR is in the run's order.
    har?.close();
    const final = shown(report);
    writers.write(final);
    log(writers.console(final));
    return exitCode(report);
  } catch (error) {
    const known =
      error instanceof ContractSetupError || (error instanceof Error && (error.name === 'CliError' || error.name === 'SpecError'));
    // Whatever stopped the run, CI's report step gets a file saying why (a crash of the kit included).
    const reason = !known
      ? `unexpected error in the kit: ${String(error)}`
      : error instanceof ContractSetupError && error.hint
        ? `${error.message} (${error.hint})`
        : (error as Error).message;
    couldNotRun(log, secrets, reason, target, strict, writers.write);
    if (!known) throw error;
    return 2;
  } finally {
    har?.close();
  }
}

/**
 * Prints the verdict of a run that could not run (redacted): the reason once, the verdict line last; writes the
 * reports asked for; resolves the exit code, 2.
 */
function couldNotRun(
  log: (text: string) => void,
  secrets: Secrets,
  reason: string,
  target = '(none)',
  strict = false,
  write: (report: ContractReport) => void = () => undefined,
): number {
  const report = unrunReport(target, strict, reason);
  for (const line of verdictLines(report)) log(redact(line, secrets));
  write(report);
  return 2;
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
