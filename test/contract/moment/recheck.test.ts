import { describe, expect, it } from 'vitest';
import { countAgain, recheckOf } from '../../../src/contract/moment/at-once.ts';
import { pageQuery } from '../../../src/contract/model/listing-query.ts';
import { createHttpClient } from '../../../src/contract/client/http-client.ts';
import { createOperationContext } from '../../../src/contract/run/operation-context.ts';
import { createPrismValidator } from '../../../src/contract/model/prism.ts';
import { listOperations } from '../../../src/spec/operations.ts';
import { KEY, spec, validator } from '../../helpers.ts';
import { growing, liveTarget } from '../targets/live-targets.ts';

/** The alerts' context against a target holding 200 + `arrived()` alerts, and a way to make more arrive. */
async function alertsContext(answer?: (request: Request) => Response | undefined) {
  let arrived = 0;
  const target = liveTarget((path) => growing(1)(path, arrived, 0));
  const client = createHttpClient({
    target: 'http://live.test',
    apiKey: KEY,
    apiKeyHeader: 'x-api-key',
    timeoutMs: 5_000,
    maxBodyBytes: 1 << 24,
    fetch: async (request: Request) => answer?.(request) ?? target(request),
  });
  const operation = listOperations(spec.document).find((op) => op.operationId === 'listAlerts')!;
  const judges = { prism: await createPrismValidator(spec.document), schemas: validator };
  const settings = { maxPages: 50, seed: 1, examples: 10, apiKey: KEY, concurrency: 1, pathsAsWritten: false };
  const context = createOperationContext(operation, spec.document, client, judges, settings, () => undefined);
  return { context, arrive: (n: number) => (arrived += n) };
}

describe('rechecks: the requests of a finding sent again, which may not be able to tell', () => {
  it('countAgain counts a listing that grew since it was read, reading further when it must, up to --max-pages', async () => {
    const { context, arrive } = await alertsContext();
    const listing = await context.listing();
    expect(listing).toMatchObject({ complete: true, pages: 3 });
    arrive(250);
    // The pages it had and two more: 5 pages of 100 hold 450.
    expect(await countAgain(context, listing)).toMatchObject({ count: 450 });
    arrive(350);
    // Past 5 pages: all of it again over 10.
    expect(await countAgain(context, { ...listing, maxPages: 10 })).toMatchObject({ count: 800 });
    expect(await countAgain(context, { ...listing, maxPages: 7 })).toBeUndefined();
  });

  it('a recheck whose answers are not all 200 arrays cannot tell (undefined), rather than agreeing', async () => {
    const { context } = await alertsContext((request) =>
      new URL(request.url).searchParams.get('page') === '2' ? new Response('{}', { status: 503 }) : undefined,
    );
    const recheck = recheckOf(context, [pageQuery(context, 1, 10), pageQuery(context, 2, 10)], () => true);
    expect(await recheck()).toBeUndefined();
    const agreeing = recheckOf(context, [pageQuery(context, 1, 10), pageQuery(context, 3, 10)], () => false);
    expect(await agreeing()).toBe(false);
  });
});
