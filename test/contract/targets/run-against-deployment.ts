// The kit against a moving deployment started for the run and stopped after it: what the slow suite and the
// seeds script both run (apart from moving-deployment.ts, whose child processes must not load the kit).
import type { ContractOptions } from '../../../src/contract/options/contract-options.ts';
import { runContract } from '../../../src/contract/run/run-contract.ts';
import type { ContractReport } from '../../../src/contract/types.ts';
import { KEY, spec } from '../../helpers.ts';
import { type Deployment, type DeploymentOptions, type Shape, startDeployment } from './moving-deployment.ts';

const running = new Set<Deployment>();

/**
 * The kit with its default options (but fewer generated requests, to keep runs short; `kit` sets others) against a
 * deployment of `shape` with `seed`.
 *
 * @example
 * const report = await runAgainstDeployment('index', 1, { refreshMs: 5_000 });
 */
export async function runAgainstDeployment(
  shape: Shape,
  seed: number,
  options: DeploymentOptions = {},
  kit: Partial<ContractOptions> = {},
): Promise<ContractReport> {
  const deployment = await startDeployment(shape, { seed, ...options });
  running.add(deployment);
  try {
    return await runContract({ target: deployment.url, apiKey: KEY, document: spec.document, seed, examples: 20, strict: true, ...kit });
  } finally {
    deployment.stop();
    running.delete(deployment);
  }
}

/** Stops every deployment still running (a run abandoned by a test's timeout). */
export function stopDeployments(): void {
  for (const deployment of running) deployment.stop();
  running.clear();
}
