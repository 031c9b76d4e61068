import { listOperations, type Operation } from '../spec/operations.ts';
import { createSchemaValidator } from '../spec/schema-validator.ts';
import { targetView } from '../spec/target-view.ts';
import {
  identities,
  listingTotal,
  noEvidence,
  recordsOf,
  type Check,
  type Finding,
  type Listing,
  type OperationContext,
  type Skip,
} from './check.ts';
import { ALL_CHECKS, selectChecks } from './checks/index.ts';
import { grade } from './grade.ts';
import type { ContractOptions } from './contract-options.ts';
import { createHttpClient, DEADLINE_REACHED } from './http-client.ts';
import { createOperationContext } from './operation-context.ts';
import { ContractSetupError, type CheckOutcome, type ContractReport, type Exchange, type Failure, type ListingCoverage } from './types.ts';

export type { ContractOptions } from './contract-options.ts';

/** Defaults of a run, shown in the CLI's help. */
export const CONTRACT_DEFAULTS = { examples: 100, maxDurationMs: 300_000, maxPages: 50, timeoutMs: 10_000 } as const;

/**
 * Runs the selected checks against every operation of the spec and grades the result. Never throws
 * for anything the target does; only (ContractSetupError) when the run looks misconfigured: the target
 * cannot be reached, refuses the key, or answers 404 to every listing.
 */
export async function runContract(options: ContractOptions): Promise<ContractReport> {
  const checks = selectChecks(options.checks);
  if (options.checks && options.maxResponseTimeMs === undefined && options.checks.includes('max_response_time')) {
    throw new ContractSetupError('--checks max_response_time needs --max-response-time MS');
  }
  const operations = listOperations(options.document).filter((op) => op.method === 'get');
  const apiKeyHeader = operations.find((op) => op.apiKeyHeader)?.apiKeyHeader ?? 'x-api-key';
  const maxDurationMs = options.maxDurationMs ?? CONTRACT_DEFAULTS.maxDurationMs;
  const stopAt = new AbortController();
  const deadline = stopAt.signal;
  const client = createHttpClient({
    target: options.target,
    apiKeyHeader,
    timeoutMs: options.timeoutMs ?? CONTRACT_DEFAULTS.timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? 16 * 1024 * 1024,
    signal: deadline,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.rate !== undefined ? { rate: options.rate } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
  });
  // Loaded here, not at import: the public entry must not make every importer pay for prism-http.
  const { createPrismValidator } = await import('./prism.ts');
  const judges = { prism: await createPrismValidator(options.document), schemas: createSchemaValidator(targetView(options.document)) };
  // The deadline counts from the first request: loading the validator is the kit's own cost.
  const timer = setTimeout(() => stopAt.abort(), maxDurationMs);
  timer.unref();
  try {
    return await checkAll();
  } finally {
    clearTimeout(timer);
  }

  async function checkAll(): Promise<ContractReport> {
    const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
    const settings = {
      maxPages: options.maxPages ?? CONTRACT_DEFAULTS.maxPages,
      seed,
      examples: options.examples ?? CONTRACT_DEFAULTS.examples,
      apiKey: options.apiKey,
      ...(options.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: options.maxResponseTimeMs } : {}),
    };

    const runs = operations.map((operation) => {
      const exchanges: Exchange[] = [];
      return { operation, exchanges, context: createOperationContext(operation, options.document, client, judges, settings, exchanges) };
    });
    const probes = await Promise.all(runs.map(({ context }) => context.send({})));
    refuseMisconfigured(
      probes,
      runs.map((r) => r.operation),
    );

    const outcomes: CheckOutcome[] = [];
    const stop = (): Skip | undefined =>
      deadline.aborted
        ? noEvidence(`the run's --max-duration of ${Math.round(maxDurationMs / 1000)} s was reached before this check ran`)
        : undefined;
    for (const [i, { context, exchanges }] of runs.entries()) {
      const scenarios: CheckOutcome[] = [];
      for (const check of checks.filter((c) => c.kind === 'scenario')) {
        const outcome = await runScenario(check, context, stop());
        // Cut short by the deadline with nothing found: what it saw proves nothing either way.
        const cut = deadline.aborted && outcome.status !== 'skipped' && outcome.failures.length === 0;
        scenarios.push(
          cut
            ? {
                ...outcome,
                status: 'skipped',
                skipCause: 'no-evidence',
                skipReason: `the run's --max-duration of ${Math.round(maxDurationMs / 1000)} s was reached during this check`,
              }
            : outcome,
        );
      }
      const changed = await dataChanged(context, probes[i]!);
      outcomes.push(...(changed ? scenarios.map((o) => invalidate(o, changed, seed)) : scenarios));
      // Requests the deadline stopped are the kit's doing, not the target's: no response check judges them.
      const judged = exchanges.filter((e) => e.error !== DEADLINE_REACHED);
      for (const check of checks.filter((c) => c.kind === 'response')) outcomes.push(inspectAll(check, context, judged));
    }
    const read = await Promise.all(runs.map(({ context }) => context.listingRead()));
    const coverage = runs.flatMap(({ operation }, i) => (read[i] ? [coverageOf(operation.operationId, read[i])] : []));
    return grade({
      coverage,
      target: options.target,
      strict: options.strict ?? false,
      outcomes,
      stats: client.stats,
      seed,
      examples: settings.examples,
    });
  }
}

function coverageOf(operationId: string, listing: Listing): ListingCoverage {
  const total = listingTotal(listing);
  return {
    operationId,
    read: listing.records.length,
    ...(total !== undefined ? { total } : {}),
    sampledPages: listing.end ? listing.end.pages.length - 1 : 0,
    complete: listing.complete,
  };
}

/** Exit-2 conditions: nothing reached, the key refused, or every listing a 404 (a wrong base URL). */
function refuseMisconfigured(probes: readonly Exchange[], operations: readonly Operation[]): void {
  const unreachable = probes.find((p) => p.error && !p.response);
  if (unreachable)
    throw new ContractSetupError(
      `cannot reach ${unreachable.request.url}: ${unreachable.error}`,
      'check --target, and that the server is running',
    );
  const refused = probes.find((p) => p.response?.status === 401 || p.response?.status === 403);
  // Every check needs an accepted key; a refused one would only bury the real findings.
  if (refused) {
    throw new ContractSetupError(
      `${refused.request.url} refused the API key (${refused.response!.status})`,
      'check TEMPMON_API_KEY or --api-key',
    );
  }
  if (probes.length > 0 && probes.every((p) => p.response?.status === 404)) {
    const paths = operations.map((op) => op.path).join(' and ');
    throw new ContractSetupError(
      `every listing request got 404 (${probes.map((p) => p.request.url).join(', ')})`,
      `is --target the API's base URL? The kit appends ${paths} to it (a deployment under a prefix needs it in --target, e.g. https://host/v1)`,
    );
  }
}

async function runScenario(check: Check, context: OperationContext, stopped: Skip | undefined): Promise<CheckOutcome> {
  if (check.kind !== 'scenario') throw new Error('not a scenario check');
  const base = { check: check.name, operationId: context.operation.operationId, description: check.description, evidence: check.evidence };
  const skip = stopped ?? check.skip?.(context);
  if (skip) return { ...base, status: 'skipped', failures: [], skipReason: skip.skip, skipCause: skip.cause };
  const result = await check.run(context);
  if ('skip' in result) return { ...base, status: 'skipped', failures: [], skipReason: result.skip, skipCause: result.cause };
  return { ...base, status: 'passed', failures: result.map((f) => ({ ...f, check: check.name, operationId: base.operationId })) };
}

/** Applies a response check to every exchange, folding repeats of one failure into a count. */
function inspectAll(check: Check, context: OperationContext, exchanges: readonly Exchange[]): CheckOutcome {
  if (check.kind !== 'response') throw new Error('not a response check');
  const base = { check: check.name, operationId: context.operation.operationId, description: check.description, evidence: check.evidence };
  const skip = check.skip?.(context) ?? check.needs?.(exchanges);
  if (skip) return { ...base, status: 'skipped', failures: [], skipReason: skip.skip, skipCause: skip.cause };
  const folded = new Map<string, Failure>();
  for (const exchange of exchanges) {
    for (const finding of check.inspect(exchange, context)) {
      const key = `${finding.severity}|${finding.message.replace(/\[\d+\]/g, '[*]')}`;
      const seen = folded.get(key);
      if (seen) folded.set(key, { ...seen, occurrences: (seen.occurrences ?? 1) + 1 });
      else folded.set(key, toFailure(finding, base));
    }
  }
  return { ...base, status: 'passed', failures: [...folded.values()] };
}

const toFailure = (finding: Finding, base: { check: string; operationId: string }): Failure => ({ ...finding, ...base });

/**
 * A real deployment can change while the kit reads it. The first page and its count are read again at
 * the end; when they differ, findings that compare requests cannot be told from the change.
 */
async function dataChanged(context: OperationContext, probe: Exchange): Promise<string | undefined> {
  const before = recordsOf(probe);
  if (!before) return undefined;
  const after = await context.send({});
  const now = recordsOf(after);
  if (!now) return undefined;
  const count = (e: Exchange) => e.response?.headers['x-total-count'];
  // The same records in another order is stable_order's to judge, not a change of data.
  if (identities(before).sort().join() !== identities(now).sort().join())
    return 'the first page holds other records at the end of the run than at its start';
  if (count(probe) !== count(after)) return `X-Total-Count went from ${count(probe)} to ${count(after)} during the run`;
  return undefined;
}

function invalidate(outcome: CheckOutcome, why: string, seed: number): CheckOutcome {
  if (outcome.status === 'skipped' || outcome.failures.length === 0) return outcome;
  const { failures: _, ...rest } = outcome;
  return {
    ...rest,
    failures: [],
    status: 'skipped',
    skipCause: 'no-evidence',
    skipReason: `data changed during the run (${why}); run again, with --seed ${seed} to replay the same requests`,
  };
}

export { ALL_CHECKS, ContractSetupError };
