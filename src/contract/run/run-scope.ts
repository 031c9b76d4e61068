// What every step of a run shares: the options, the checks, the client, the judges, the settings and the deadline.
import type { HttpClient } from '../client/http-client.ts';
import type { Track } from '../client/exchange-recorder.ts';
import type { Check } from '../model/check.ts';
import type { OperationContext } from '../model/context.ts';
import { noEvidence, type Skip } from '../model/skip.ts';
import type { SettledOptions } from '../options/contract-flags.ts';
import type { Operation } from '../../spec/operations.ts';
import type { Judges } from '../model/judges.ts';
import { createOperationContext, type ContextLinks, type ContextSettings } from './operation-context.ts';

/** What the steps of one run share; made once, never changed. */
export interface RunScope {
  readonly options: SettledOptions;
  readonly checks: readonly Check[];
  readonly client: HttpClient;
  readonly judges: Judges;
  readonly settings: ContextSettings;
  /** Aborted when --max-duration is reached. */
  readonly deadline: AbortSignal;
  readonly maxDurationMs: number;
}

/**
 * A context for `operation` in this run, sending through `client` (the run's, or one that sends copies).
 *
 * @example
 * const context = contextFor(scope, operation, scope.client, recorder.list());
 */
export const contextFor = (
  scope: RunScope,
  operation: Operation,
  client: HttpClient,
  track: Track,
  links?: ContextLinks,
): OperationContext => createOperationContext(operation, scope.options.document, client, scope.judges, scope.settings, track, links);

/** The check of the run named `name` (an outcome's). */
export const checkNamed = (scope: RunScope, name: string): Check => scope.checks.find((c) => c.name === name)!;

/** Why a check that has not started will not: the deadline passed (undefined while it has not). */
export const deadlineSkip = (scope: RunScope): Skip | undefined =>
  scope.deadline.aborted
    ? noEvidence(`the run's --max-duration of ${Math.round(scope.maxDurationMs / 1000)} s was reached before this check ran`)
    : undefined;
