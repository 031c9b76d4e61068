import { identities, needListing, preview, recordsOf, type ScenarioCheck } from '../check.ts';
import { explore, usable, type Judgement } from '../explore/explore.ts';
import { explorationOf } from '../explore/exploration-state.ts';
import { requestArbitrary, resolveRequest } from '../explore/generated-request.ts';

/**
 * Generated requests judged against the model under the spec's assumptions (warnings): the records a
 * term finds (a case-insensitive substring of any string field; empty means all), in the listing's order,
 * and 200 [] past the end. Needs the whole listing.
 */
export const exploreSearch: ScenarioCheck = {
  name: 'explore_search',
  kind: 'scenario',
  description: 'generated searches and pages find exactly the records the model expects, in order, 200 [] past the end (assumed)',
  evidence: 'the listing read to its end with at least 1 record, and generated requests answered without a 5xx or redirect',
  async run(context) {
    const missing = needListing(await context.listing(), 1, true);
    if (missing) return missing;
    const { model, send, wrong } = await explorationOf(context);
    return explore(context, requestArbitrary(model, context.parameters, wrong.length), async (generated): Promise<Judgement> => {
      if (generated.credentials !== undefined) return { kind: 'pass' };
      const request = resolveRequest(generated, model, context.parameters);
      const exchange = await send(request.query);
      const unanswered = usable(exchange);
      if (unanswered) return unanswered;
      const term = request.term?.text ?? '';
      const found = model.matches(term);
      const start = (request.page - 1) * request.size;
      const want = identities(found.slice(start, start + request.size));
      const where = `page ${request.page} of size ${request.size}${request.term ? ` searching ${JSON.stringify(preview(term, 40))}` : ''}`;
      const records = recordsOf(exchange);
      const fail = (message: string, expected: string, actual: string): Judgement => ({
        kind: 'fail',
        finding: { severity: 'warning', message, expected, actual, exchange },
      });
      if (!records)
        return fail(
          `${where} is not 200 with a JSON array`,
          want.length === 0 ? '200 []' : '200 with records',
          `${exchange.response!.status} ${preview(exchange.response!.text, 80)}`,
        );
      const ids = identities(records);
      if (ids.join() === want.join()) return { kind: 'pass' };
      return fail(
        `${where} differs from the model (${found.length} records contain the term, ignoring case, in listing order)`,
        want.join(', ') || '[]',
        ids.join(', ') || '[]',
      );
    });
  },
};
