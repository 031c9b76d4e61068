// The alerts' listing of an in-process target whose data grows when told to: what the versions are tried on.
import { createHttpClient } from '../../../src/contract/client/http-client.ts';
import { createOperationContext } from '../../../src/contract/run/operation-context.ts';
import { createPrismValidator } from '../../../src/contract/model/prism.ts';
import { listOperations } from '../../../src/spec/operations.ts';
import { KEY, spec, validator } from '../../helpers.ts';
import { growing, liveTarget, type Source } from '../targets/live-targets.ts';

/**
 * The alerts' context against a target holding 200 + `arrived()` alerts (its pages served as `edit` says), a way to
 * make more arrive, and the requests it got.
 */
export async function alertsContext(
  answer?: (request: Request) => Response | undefined,
  edit?: Parameters<typeof liveTarget>[1],
  /** Where the alerts come from instead (a source of live-targets.ts: replicas, say); `arrive` then does nothing. */
  source?: Source,
) {
  let arrived = 0;
  let requests = 0;
  const target = liveTarget(source ?? ((path) => growing(1)(path, arrived, 0)), edit);
  const client = createHttpClient({
    target: 'http://live.test',
    apiKey: KEY,
    apiKeyHeader: 'x-api-key',
    timeoutMs: 5_000,
    maxBodyBytes: 1 << 24,
    fetch: async (request: Request) => {
      requests += 1;
      return answer?.(request) ?? target(request);
    },
  });
  const operation = listOperations(spec.document).find((op) => op.operationId === 'listAlerts')!;
  const judges = { prism: await createPrismValidator(spec.document), schemas: validator };
  const settings = {
    maxPages: 50,
    seed: 1,
    examples: 10,
    apiKey: KEY,
    concurrency: 1,
    pathsAsWritten: false,
    maxStalenessMs: 10_000,
  };
  const contextWith = (through: typeof client, links?: Parameters<typeof createOperationContext>[6]) =>
    createOperationContext(operation, spec.document, through, judges, settings, () => undefined, links);
  const context = contextWith(client);
  return { context, client, contextWith, arrive: (n: number) => (arrived += n), requests: () => requests };
}
