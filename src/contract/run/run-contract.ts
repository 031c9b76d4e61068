// The runner: a run as a short sequence of named steps, each in a file of its own beside this one.
import { ALL_CHECKS, selectChecks } from '../checks/index.ts';
import { createHttpClient, type HttpClient } from '../client/http-client.ts';
import { requestKind } from '../model/listing-query.ts';
import { grade } from '../grading/grade.ts';
import type { Check } from '../model/check.ts';
import { CONTRACT_FLAGS, type SettledOptions, withDefaults } from '../options/contract-flags.ts';
import type { ContractOptions } from '../options/contract-options.ts';
import { listListings, type Operation } from '../../spec/operations.ts';
import { requireDocument } from '../../spec/require-document.ts';
import { ContractSetupError, type ContractReport } from '../types.ts';
import { checkOperations } from './check-operations.ts';
import { coverageOfRuns } from './coverage.ts';
import { loadJudges } from '../model/judges.ts';
import { prepareRuns } from './operation-runs.ts';
import { probeListings } from './probe-listings.ts';
import { contextFor, type RunScope } from './run-scope.ts';
import { planRun } from './plan-run.ts';
import { extendPlan } from './extend-plan.ts';

export type { ContractOptions } from '../options/contract-options.ts';

/**
 * Runs the selected checks against every operation of the spec and grades the result. Never throws
 * for anything the target does; only (ContractSetupError) when the run looks misconfigured: the target
 * cannot be reached, refuses the key, or answers 404 to every listing.
 *
 * @example
 * const report = await runContract({ target: 'https://api.example.com/v1', apiKey, document });
 * process.exitCode = report.verdict === 'conformant' ? 0 : 1;
 */
export async function runContract(asked: ContractOptions): Promise<ContractReport> {
  requireDocument(asked.document, 'runContract({ document })');
  const options = withDefaults(asked);
  const checks = checksOf(options);
  const operations = listListings(options.document);
  const stopAt = new AbortController();
  const client = clientOf(options, operations, stopAt.signal);
  const judges = await loadJudges(options.document);
  const { maxDurationMs } = options;
  // The deadline counts from the first request: loading the validator is the kit's own cost.
  const timer = setTimeout(() => stopAt.abort(), maxDurationMs);
  timer.unref();
  const startedAt = performance.now();
  try {
    const asked = scopeOf(options, { checks, client, judges, deadline: stopAt.signal, maxDurationMs });
    const runs = prepareRuns(asked, operations);
    const probes = await probeListings(runs);
    const planned = await planRun(asked, runs, performance.now() - startedAt);
    const extension = extendPlan(asked, runs, probes, planned, () => performance.now() - startedAt);
    const trimmed = (['examples', 'covering', 'specialTerms'] as const).filter(
      (part) => planned.plan[part].used !== planned.plan[part].asked,
    );
    const scope = {
      ...asked,
      settings: { ...asked.settings, ...Object.fromEntries(trimmed.map((part) => [part, planned.plan[part].used])) },
    };
    // A plan trimmed: the checks' contexts say so (nothing has read them yet).
    if (trimmed.length > 0)
      for (const run of runs) run.context = contextFor(scope, run.operation, run.client, run.track, { shared: run.context });
    const outcomes = await checkOperations(scope, runs, probes, extension.afterPlanned);
    const coverage = await coverageOfRuns(runs);
    const { seed, examples } = scope.settings;
    const logged = client.timing?.report();
    const timing = logged && { ...logged, peakRssMb: peakRssMb() };
    return grade({
      coverage,
      target: options.target,
      strict: options.strict,
      outcomes,
      stats: client.stats,
      seed,
      examples,
      plan: extension.plan(),
      listings: runs.map((run) => run.judge.answers()),
      ...(timing ? { timing } : {}),
    });
  } finally {
    clearTimeout(timer);
  }
}

/** The checks asked for, refusing a combination that cannot run. */
function checksOf(options: SettledOptions): Check[] {
  const checks = selectChecks(options.checks);
  // A check asked for by name whose opt-in option is absent could only be skipped: the run refuses it instead.
  for (const check of options.checks ? checks : []) {
    const flag = CONTRACT_FLAGS.find((f) => `--${f.name}` === check.optIn);
    if (flag && 'option' in flag && options[flag.option] === undefined)
      throw new ContractSetupError(`--checks ${check.name} needs ${check.optIn}${'value' in flag ? ` ${flag.value}` : ''}`);
  }
  return checks;
}

/** The run's client: the key in the header the spec names (none when no listing is secured by one). */
function clientOf(options: SettledOptions, operations: readonly Operation[], deadline: AbortSignal): HttpClient {
  const apiKeyHeader = operations.find((op) => op.apiKeyHeader)?.apiKeyHeader;
  return createHttpClient({
    target: options.target,
    ...(apiKeyHeader ? { apiKeyHeader } : {}),
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    signal: deadline,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.rate !== undefined ? { rate: options.rate } : {}),
    concurrency: options.concurrency,
    requestKind: requestKind(operations),
    maxRetries: options.maxRetries,
  });
}

/** What every step shares: the settings each context is made with, the seed drawn when none was given. */
function scopeOf(options: SettledOptions, made: Omit<RunScope, 'options' | 'settings'>): RunScope {
  const settings = {
    maxPages: options.maxPages,
    seed: options.seed,
    examples: options.examples,
    ...(options.covering !== undefined ? { covering: options.covering } : {}),
    ...(options.specialTerms !== undefined ? { specialTerms: options.specialTerms } : {}),
    apiKey: options.apiKey,
    concurrency: options.concurrency,
    pathsAsWritten: options.fetch === undefined,
    maxStalenessMs: options.maxStalenessMs,
    ...(options.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: options.maxResponseTimeMs } : {}),
  };
  return { ...made, options, settings };
}

export { ALL_CHECKS, ContractSetupError };

/** The process's peak resident set size so far, in whole MB (maxRSS is in KiB). */
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
