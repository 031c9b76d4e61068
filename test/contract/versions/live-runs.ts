// How the live-data tests run the kit against an in-process live target, and read what it found.
import { runContract } from '../../../src/contract/run/run-contract.ts';
import type { ContractOptions } from '../../../src/contract/options/contract-options.ts';
import type { ContractReport } from '../../../src/contract/types.ts';
import { KEY, spec } from '../../helpers.ts';

/**
 * A run against `fetch`: a broken target with only the check that must catch it, a conformant one with all of them;
 * `options` over the defaults below.
 */
export const run = (fetch: (request: Request) => Promise<Response>, checks?: string[], options: Partial<ContractOptions> = {}) =>
  runContract({
    target: 'http://live.test',
    apiKey: KEY,
    document: spec.document,
    fetch,
    seed: 21,
    examples: 40,
    ...(checks ? { checks } : {}),
    ...options,
  });

/** The outcome of `check` on the alerts' listing. */
export const alerts = (report: ContractReport, check: string) =>
  report.outcomes.find((o) => o.check === check && o.operationId === 'listAlerts');

/** What failed or could not be evaluated, one line each. */
export const problems = (report: ContractReport) =>
  report.outcomes
    .filter((o) => o.status === 'failed' || (o.status === 'skipped' && o.skipCause === 'no-evidence'))
    .map((o) => `${o.operationId} ${o.check}: ${o.failures[0]?.message ?? o.skipReason}`);
