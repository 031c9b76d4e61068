// The run's first requests: one plain page of each listing, and what they tell of a misconfigured run.
import type { Operation } from '../../spec/operations.ts';
import { ContractSetupError, type Exchange } from '../types.ts';
import type { OperationRun } from './operation-runs.ts';

/**
 * The first page of every listing, all at once; throws ContractSetupError (exit 2) when the run looks
 * misconfigured, once every answer is recorded.
 *
 * @example
 * const probes = await probeListings(runs);
 */
export async function probeListings(runs: readonly OperationRun[]): Promise<Exchange[]> {
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
  return probes;
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
    // '/alert and /sensor'; '/alert, /sensor, and /site' for three.
    const paths = new Intl.ListFormat('en', { type: 'conjunction' }).format(operations.map((op) => op.path));
    // The base URL the probes were sent to: a prefix is suggested only to a target that has none.
    const url = new URL(probes[0]!.request.url);
    const path = operations[0]!.path;
    const under = url.pathname.endsWith(path) ? url.pathname.slice(0, -path.length) : url.pathname;
    const prefix = under.replace(/\/$/, '') === '' ? `; a deployment under a prefix needs it in --target, e.g. ${url.origin}/v1` : '';
    throw new ContractSetupError(
      `every listing request got 404 (${probes.map((p) => p.request.url).join(', ')})`,
      `is --target the API's base URL? The kit appends ${paths} to it${prefix}`,
    );
  }
}
