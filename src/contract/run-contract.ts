import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { listOperations } from '../spec/operations.ts';
import type { Check, Finding, OperationContext } from './check.ts';
import { ALL_CHECKS, selectChecks } from './checks/index.ts';
import { createHttpClient, type FetchLike } from './http-client.ts';
import { createOperationContext } from './operation-context.ts';
import { ContractSetupError, type CheckOutcome, type ContractReport, type Exchange, type Failure } from './types.ts';

/** Options of {@link runContract}. */
export interface ContractOptions {
  /** Base URL of the server under test. */
  readonly target: string;
  readonly apiKey?: string;
  readonly document: OpenAPIObject;
  /** Names of the checks to run; all by default. */
  readonly checks?: readonly string[];
  /** Warnings (assumptions, undocumented fields) fail the run too. */
  readonly strict?: boolean;
  readonly timeoutMs?: number;
  readonly maxPages?: number;
  readonly maxResponseTimeMs?: number;
  readonly maxBodyBytes?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** How to send requests; global fetch by default, an app's fetch for an in-process target. */
  readonly fetch?: FetchLike;
}

/**
 * Runs the selected checks against every operation of the spec and grades the result. Never throws
 * for anything the target does; only for a target that cannot be reached at all.
 */
export async function runContract(options: ContractOptions): Promise<ContractReport> {
  const checks = selectChecks(options.checks);
  const operations = listOperations(options.document).filter((op) => op.method === 'get');
  const apiKeyHeader = operations.find((op) => op.apiKeyHeader)?.apiKeyHeader ?? 'x-api-key';
  const client = createHttpClient({
    target: options.target,
    apiKeyHeader,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBodyBytes: options.maxBodyBytes ?? 16 * 1024 * 1024,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // Loaded here, not at import: the public entry must not make every importer pay for prism-http.
  const { createPrismValidator } = await import('./prism.ts');
  const prism = await createPrismValidator(options.document);
  const settings = { maxPages: options.maxPages ?? 50, ...(options.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: options.maxResponseTimeMs } : {}) };

  const outcomes: CheckOutcome[] = [];
  let requests = 0;
  for (const operation of operations) {
    const exchanges: Exchange[] = [];
    const context = createOperationContext(operation, options.document, client, prism, settings, exchanges);
    const probe = await context.send({});
    if (probe.error && !probe.response) {
      throw new ContractSetupError(`cannot reach ${probe.request.url}: ${probe.error}`);
    }
    // Every check needs an accepted key; a refused one would only bury the real findings.
    if (probe.response?.status === 401 || probe.response?.status === 403) {
      throw new ContractSetupError(`${probe.request.url} refused the API key (${probe.response.status}): check TEMPMON_API_KEY or --api-key`);
    }
    for (const check of checks.filter((c) => c.kind === 'scenario')) {
      outcomes.push(await runScenario(check, context));
    }
    for (const check of checks.filter((c) => c.kind === 'response')) {
      outcomes.push(inspectAll(check, context, exchanges));
    }
    requests += exchanges.length;
  }
  return grade(options.target, options.strict ?? false, outcomes, requests);
}

async function runScenario(check: Check, context: OperationContext): Promise<CheckOutcome> {
  if (check.kind !== 'scenario') throw new Error('not a scenario check');
  const base = { check: check.name, operationId: context.operation.operationId, description: check.description };
  const reason = check.skip?.(context);
  if (reason) return { ...base, status: 'skipped', failures: [], skipReason: reason };
  const result = await check.run(context);
  if ('skip' in result) return { ...base, status: 'skipped', failures: [], skipReason: result.skip };
  return { ...base, status: 'passed', failures: result.map((f) => ({ ...f, check: check.name, operationId: base.operationId })) };
}

/** Applies a response check to every exchange, folding repeats of one failure into a count. */
function inspectAll(check: Check, context: OperationContext, exchanges: readonly Exchange[]): CheckOutcome {
  if (check.kind !== 'response') throw new Error('not a response check');
  const base = { check: check.name, operationId: context.operation.operationId, description: check.description };
  const reason = check.skip?.(context);
  if (reason) return { ...base, status: 'skipped', failures: [], skipReason: reason };
  const folded = new Map<string, Failure>();
  for (const exchange of exchanges) {
    for (const finding of check.inspect(exchange, context)) {
      const key = `${finding.severity}|${finding.message.replace(/\[\d+\]/g, '[*]')}`;
      const seen = folded.get(key);
      if (seen) folded.set(key, { ...seen, occurrences: (seen.occurrences ?? 1) + 1 });
      else folded.set(key, toFailure(finding, base));
    }
  }
  const applicable = exchanges.length > 0;
  return applicable
    ? { ...base, status: 'passed', failures: [...folded.values()] }
    : { ...base, status: 'skipped', failures: [], skipReason: 'no response to inspect' };
}

const toFailure = (finding: Finding, base: { check: string; operationId: string }): Failure => ({ ...finding, ...base });

function grade(target: string, strict: boolean, outcomes: CheckOutcome[], requests: number): ContractReport {
  const graded = outcomes.map((outcome): CheckOutcome => {
    if (outcome.status === 'skipped') return outcome;
    const errors = outcome.failures.some((f) => f.severity === 'error');
    const warnings = outcome.failures.some((f) => f.severity === 'warning');
    return { ...outcome, status: errors || (strict && warnings) ? 'failed' : warnings ? 'warned' : 'passed' };
  });
  const count = (status: CheckOutcome['status']) => graded.filter((o) => o.status === status).length;
  const summary = { passed: count('passed'), failed: count('failed'), warned: count('warned'), skipped: count('skipped'), requests };
  return { target, strict, outcomes: graded, summary, conformant: summary.failed === 0 };
}

export { ALL_CHECKS, ContractSetupError };
