import { CONTRACT_DEFAULTS } from '../options/contract-flags.ts';
import { listOperations, type Operation } from '../../spec/operations.ts';
import { createSchemaValidator } from '../../spec/schema-validator.ts';
import { targetView } from '../../spec/target-view.ts';
import { listingTotal, type Listing } from '../model/listing.ts';
import { noEvidence, type Skip } from '../model/skip.ts';
import { outcomeBase, type Check } from '../model/check.ts';
import type { OperationContext } from '../model/context.ts';
import { ALL_CHECKS, selectChecks } from '../checks/index.ts';
import { grade } from '../grading/grade.ts';
import type { ContractOptions } from '../options/contract-options.ts';
import { createHttpClient, DEADLINE_REACHED } from '../client/http-client.ts';
import { observeChange, stillDuring, untilTold } from '../moment/live-data.ts';
import { newestCopy, otherCopies } from '../moment/newest-copy.ts';
import { createExchangeRecorder } from '../client/exchange-recorder.ts';
import { createOperationContext } from './operation-context.ts';
import { createResponseJudge } from '../grading/response-judge.ts';
import { ContractSetupError, type CheckOutcome, type ContractReport, type Exchange, type Failure, type ListingCoverage } from '../types.ts';
import { requireDocument } from '../../spec/require-document.ts';

export type { ContractOptions } from '../options/contract-options.ts';

/** Defaults of a run, shown in the CLI's help. */

/**
 * Runs the selected checks against every operation of the spec and grades the result. Never throws
 * for anything the target does; only (ContractSetupError) when the run looks misconfigured: the target
 * cannot be reached, refuses the key, or answers 404 to every listing.
 */
export async function runContract(options: ContractOptions): Promise<ContractReport> {
  requireDocument(options.document, 'runContract({ document })');
  const checks = selectChecks(options.checks);
  if (options.checks && options.maxResponseTimeMs === undefined && options.checks.includes('max_response_time')) {
    throw new ContractSetupError('--checks max_response_time needs --max-response-time MS');
  }
  const operations = listOperations(options.document).filter((op) => op.method === 'get');
  // A spec that secures no listing with a key: none is sent.
  const apiKeyHeader = operations.find((op) => op.apiKeyHeader)?.apiKeyHeader;
  const maxDurationMs = options.maxDurationMs ?? CONTRACT_DEFAULTS.maxDurationMs;
  const stopAt = new AbortController();
  const deadline = stopAt.signal;
  const client = createHttpClient({
    target: options.target,
    ...(apiKeyHeader ? { apiKeyHeader } : {}),
    timeoutMs: options.timeoutMs ?? CONTRACT_DEFAULTS.timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? 16 * 1024 * 1024,
    signal: deadline,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.rate !== undefined ? { rate: options.rate } : {}),
    concurrency: options.concurrency ?? CONTRACT_DEFAULTS.concurrency,
    maxRetries: options.maxRetries ?? CONTRACT_DEFAULTS.maxRetries,
  });
  // Loaded here, not at import: the public entry must not make every importer pay for prism-http.
  const { createPrismValidator } = await import('../model/prism.ts');
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
    const concurrency = options.concurrency ?? CONTRACT_DEFAULTS.concurrency;
    const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
    const settings = {
      maxPages: options.maxPages ?? CONTRACT_DEFAULTS.maxPages,
      seed,
      examples: options.examples ?? CONTRACT_DEFAULTS.examples,
      apiKey: options.apiKey,
      concurrency,
      pathsAsWritten: options.fetch === undefined,
      ...(options.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: options.maxResponseTimeMs } : {}),
    };

    const responseChecks = checks.filter((c) => c.kind === 'response');
    const runs = operations.map((operation, index) => {
      // Each answer is judged by the response checks and recorded as it arrives, then let go.
      const recorder = createExchangeRecorder(index, (exchange, place) => {
        // Requests the deadline stopped are the kit's doing, not the target's: no response check judges them.
        if (exchange.error !== DEADLINE_REACHED && !exchange.judgedAlone) run.judge.inspect(exchange, place);
        if (!sent(exchange)) return;
        options.record?.(exchange, place);
        for (const [i, copy] of otherCopies(exchange).entries()) options.record?.(copy, [...place, i + 1]);
      });
      const track = recorder.list();
      const context = createOperationContext(operation, options.document, client, judges, settings, track);
      const run = { operation, recorder, track, client, context, judge: createResponseJudge(responseChecks, context) };
      return run;
    });
    const probes = await Promise.all(runs.map(({ context }) => context.send({})));
    try {
      refuseMisconfigured(
        probes,
        runs.map((r) => r.operation),
      );
    } catch (error) {
      await Promise.all(runs.map(({ recorder }) => recorder.settled()));
      throw error;
    }

    const rereadMs = options.rereadIntervalMs ?? CONTRACT_DEFAULTS.rereadIntervalMs;
    /**
     * When the first page changed during the run, tells why before grading: the same records in new orders
     * is stable_order's error; records that came or went re-sync the model, and each check with findings that
     * compare answers is run again on a fresh context, up to REREADS times, until a run sees the data still
     * (its verdict then stands, pass or fail); otherwise those findings are inconclusive.
     */
    async function judgeAgainIfChanged(scenarios: CheckOutcome[], run: (typeof runs)[number], probe: Exchange): Promise<CheckOutcome[]> {
      const change = await observeChange(run.context, probe, rereadMs);
      if (change.kind === 'none') return scenarios;
      if (change.kind === 'replicas') {
        // Already read from the newest version, and still several: no answer can be known to come from one.
        if (run.client !== client) return scenarios.map((o) => (standsAsRun(o) ? o : invalidate(o, change.why, seed)));
        // Several versions at once: what compares answers runs again, each request answered by the newest
        // version, and is then judged as on one server whose data changes.
        const newest = { ...run, client: newestCopy(client) };
        newest.context = createOperationContext(run.operation, options.document, newest.client, judges, settings, run.track);
        const again = await newest.context.send({});
        const rerun: CheckOutcome[] = [];
        for (const outcome of scenarios)
          rerun.push(
            standsAsRun(outcome) ? outcome : await runScenario(checks.find((c) => c.name === outcome.check)!, newest.context, stop()),
          );
        return judgeAgainIfChanged(rerun, newest, again);
      }
      if (change.kind === 'shuffled') {
        return scenarios.map((o) =>
          o.check === 'stable_order'
            ? {
                ...o,
                status: o.status === 'skipped' ? 'passed' : o.status,
                failures: [...o.failures, { ...change.finding, check: o.check, operationId: o.operationId }],
              }
            : o,
        );
      }
      const judged: CheckOutcome[] = [];
      for (const outcome of scenarios) {
        const check = checks.find((c) => c.name === outcome.check)!;
        if (standsAsRun(outcome)) {
          judged.push(outcome);
          continue;
        }
        const rechecked = await recheckAll(outcome, run.context);
        if (rechecked) {
          judged.push(rechecked.settled ? rechecked.outcome : invalidate(rechecked.outcome, change.why, seed));
          continue;
        }
        const again = await untilTold(rereadMs, deadline, async () => {
          const fresh = createOperationContext(run.operation, options.document, run.client, judges, settings, run.track);
          const { result, still } = await stillDuring(fresh, () => runScenario(check, fresh, undefined));
          return still ? result : undefined;
        });
        judged.push(again ?? invalidate(outcome, change.why, seed));
      }
      return judged;
    }

    /**
     * Whether an outcome stands whatever the data did: its check judges each answer alone, or its findings are
     * absolute. A check skipped for want of evidence may have been cut short by the change (a listing read
     * across it), so it does not.
     */
    function standsAsRun(outcome: CheckOutcome): boolean {
      const unseen = outcome.status === 'skipped' && outcome.skipCause === 'no-evidence' && !deadline.aborted;
      return (
        !unseen && (checks.find((c) => c.name === outcome.check)!.judgesEachAnswer === true || outcome.failures.every((f) => f.absolute))
      );
    }

    /**
     * When every finding of an outcome that compares answers can send its requests again, each is rechecked
     * alone, up to REREADS times: agreeing now, it was the change's doing (dropped); still disagreeing while the
     * first page stood still around the recheck, it stands. `settled` false when some could not be told.
     */
    async function recheckAll(
      outcome: CheckOutcome,
      context: OperationContext,
    ): Promise<{ outcome: CheckOutcome; settled: boolean } | undefined> {
      const comparing = outcome.failures.filter((f) => !f.absolute);
      if (outcome.status === 'skipped' || !comparing.every((f) => f.recheck)) return undefined;
      const kept = outcome.failures.filter((f) => f.absolute);
      const untold: Failure[] = [];
      for (const failure of comparing) {
        const verdict = await untilTold(rereadMs, deadline, async () => {
          const { result, still } = await stillDuring(context, failure.recheck!);
          if (result === undefined) return undefined;
          return !result ? 'explained' : still ? 'stands' : undefined;
        });
        if (verdict === 'stands') kept.push(failure);
        else if (!verdict) untold.push(failure);
      }
      if (untold.length > 0 && kept.length === 0) return { outcome: { ...outcome, failures: untold }, settled: false };
      return { outcome: { ...outcome, failures: kept }, settled: true };
    }

    const stop = (): Skip | undefined =>
      deadline.aborted
        ? noEvidence(`the run's --max-duration of ${Math.round(maxDurationMs / 1000)} s was reached before this check ran`)
        : undefined;
    const scenarioChecks = checks.filter((c) => c.kind === 'scenario');

    /** Runs `group` one check after another on `context`. */
    async function oneByOne(group: readonly Check[], context: OperationContext): Promise<CheckOutcome[]> {
      const outcomes: CheckOutcome[] = [];
      for (const check of group) {
        const outcome = await runScenario(check, context, stop());
        // Cut short by the deadline with nothing found: what it saw proves nothing either way.
        const cut = deadline.aborted && outcome.status !== 'skipped' && outcome.failures.length === 0;
        outcomes.push(
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
      return outcomes;
    }

    /**
     * The scenario checks of one operation: one after another (concurrency 1), or side by side, each group on
     * a context of its own that tracks what it sends in a list of its own (a finding's recheck, later, too);
     * the operation's listing is read once, tracked with the operation's own requests. The outcomes come in
     * check order, the requests' places group by group: the same whatever order answers arrive in.
     */
    async function scenariosOf(run: (typeof runs)[number]): Promise<CheckOutcome[]> {
      if (concurrency === 1) return oneByOne(scenarioChecks, run.context);
      const groups = new Map<string, Check[]>();
      for (const check of scenarioChecks) {
        const key = (check.kind === 'scenario' && check.group) || check.name;
        groups.set(key, [...(groups.get(key) ?? []), check]);
      }
      const done = await Promise.all(
        [...groups.values()].map((group) =>
          oneByOne(
            group,
            createOperationContext(
              run.operation,
              options.document,
              client,
              judges,
              settings,
              run.recorder.list(),
              run.context,
              group.every((check) => check.kind === 'scenario' && check.background) ? -1 : 0,
            ),
          ),
        ),
      );
      const byCheck = new Map(done.flat().map((outcome) => [outcome.check, outcome]));
      return scenarioChecks.map((check) => byCheck.get(check.name)!);
    }

    /** Every check of one operation: its scenarios, judged again if the data changed, then its responses. */
    async function checkOperation(run: (typeof runs)[number], probe: Exchange): Promise<CheckOutcome[]> {
      const outcomes = await judgeAgainIfChanged(await scenariosOf(run), run, probe);
      await run.recorder.settled();
      return [...outcomes, ...run.judge.outcomes()];
    }

    const outcomes: CheckOutcome[] = [];
    // Side by side (or one after the other), recorded in the order of the operations either way.
    const started = concurrency === 1 ? undefined : runs.map((run, i) => checkOperation(run, probes[i]!));
    // A listing's failure waits its turn to be thrown: it must not go unhandled meanwhile.
    for (const operation of started ?? []) operation.catch(() => undefined);
    for (const [i, run] of runs.entries()) {
      outcomes.push(...(await (started ? started[i]! : checkOperation(run, probes[i]!))));
    }
    const read = await Promise.all(runs.map(({ context }) => context.listingRead()));
    const coverage = runs.flatMap(({ operation, context }, i) =>
      read[i] ? [coverageOf(operation.operationId, read[i], context.pairs.summary())] : [],
    );
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

/** Whether a request was sent (the deadline stops some before they go). */
const sent = (exchange: Exchange) => exchange.startedDateTime !== undefined;

function coverageOf(operationId: string, listing: Listing, pairs: ListingCoverage['pairs']): ListingCoverage {
  const total = listingTotal(listing);
  return {
    operationId,
    read: listing.records.length,
    ...(total !== undefined ? { total } : {}),
    sampledPages: listing.end ? listing.end.pages.length - 1 : 0,
    complete: listing.complete,
    ...(pairs ? { pairs } : {}),
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
  const base = outcomeBase(check, context.operation.operationId);
  const skip = stopped ?? check.skip?.(context);
  if (skip) return { ...base, status: 'skipped', failures: [], skipReason: skip.skip, skipCause: skip.cause };
  const result = await check.run(context);
  if ('skip' in result) return { ...base, status: 'skipped', failures: [], skipReason: result.skip, skipCause: result.cause };
  return { ...base, status: 'passed', failures: result.map((f) => ({ ...f, check: check.name, operationId: base.operationId })) };
}

/**
 * Keeps what no change of data can explain and makes the rest inconclusive: findings that compare answers
 * read at different moments, when the data changed and no still re-run could judge them again.
 */
function invalidate(outcome: CheckOutcome, why: string, seed: number): CheckOutcome {
  const absolute = outcome.failures.filter((f) => f.absolute);
  if (outcome.status === 'skipped' || outcome.failures.length === absolute.length) return outcome;
  if (absolute.length > 0) return { ...outcome, failures: absolute };
  const { failures: _, ...rest } = outcome;
  return {
    ...rest,
    failures: [],
    status: 'skipped',
    skipCause: 'no-evidence',
    skipReason: `data changed during the run (${why}), and no re-run could judge it on data that stood still; run again, with --seed ${seed} to replay the same requests`,
  };
}

export { ALL_CHECKS, ContractSetupError };
