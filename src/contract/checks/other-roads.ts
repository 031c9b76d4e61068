import { countHeader } from '../model/listing-query.ts';
import type { OperationContext } from '../model/context.ts';
import { describeAnswers, preview, unanswered } from '../model/answers.ts';
import { noEvidence, notApplicable, partly } from '../model/skip.ts';
import { sendEach } from '../model/send-each.ts';
import type { ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import type { SendOptions } from '../client/http-client.ts';

/** One road to the listing other than GET on its path, sent without any credential. */
interface Road {
  readonly label: string;
  readonly options: SendOptions;
}

/** Variants of `path` that a router, a proxy or a cache may take for it after the auth check took them for another. */
export function otherRoads(path: string, asWritten: boolean): Road[] {
  const name = path.slice(1);
  const encoded = `/%${name.charCodeAt(0).toString(16).toUpperCase()}${name.slice(1)}`;
  const roads: Road[] = [
    { label: `${path}/ (a trailing slash)`, options: { path: `${path}/` } },
    { label: `/${path} (a double slash)`, options: { path: `/${path}` } },
    { label: `${path.toUpperCase()} (upper case)`, options: { path: path.toUpperCase() } },
    { label: `${path};x (a matrix parameter)`, options: { path: `${path};x` } },
    { label: `${encoded} (a percent-encoded letter)`, options: { path: encoded } },
    { label: `HEAD ${path}`, options: { method: 'HEAD' } },
    { label: `POST ${path} with X-HTTP-Method-Override: GET`, options: { method: 'POST', headers: { 'x-http-method-override': 'GET' } } },
    // A CORS layer lets preflights past the auth check; a router may then hand OPTIONS to the GET handler.
    { label: `OPTIONS ${path}`, options: { method: 'OPTIONS' } },
    {
      label: `OPTIONS ${path} as a CORS preflight`,
      options: { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' } },
    },
  ];
  // Dot segments survive only unparsed: a URL parser resolves them before sending.
  if (asWritten)
    roads.push(
      { label: `/.${path} (a dot segment)`, options: { path: `/.${path}`, asWritten: true } },
      { label: `/x/..${path} (a dot-dot segment)`, options: { path: `/x/..${path}`, asWritten: true } },
    );
  return roads.map((road) => ({ ...road, options: { ...road.options, apiKey: null, judgedAlone: true } }));
}

/**
 * Whether an answer gives the listing away: a 2xx with records (a JSON array holding objects; an allow-list such
 * as `["GET","HEAD"]` is not records), or with its count header.
 */
function givesData(context: OperationContext, exchange: Exchange): boolean {
  const response = exchange.response;
  if (!response || response.status < 200 || response.status >= 300) return false;
  const records =
    Array.isArray(response.json) && response.json.some((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
  return records || countHeader(context, exchange) !== undefined;
}

/**
 * Without any credential, no other road to a listing gives its data: path variants (trailing slash, double
 * slash, upper case, a matrix parameter, a percent-encoded letter, dot segments sent as written), HEAD, an
 * empty POST with X-HTTP-Method-Override: GET, and OPTIONS, bare and as a CORS preflight. Judged by that rule
 * only: a 204 or 200 with CORS headers, a 301, 404, 405 or even a 5xx to them is not this check's finding. An
 * error in every mode: it is the auth check bypassed.
 */
export const otherRoadsToData: ScenarioCheck = {
  name: 'other_roads_to_data',
  kind: 'scenario',
  judgesEachAnswer: true,
  description: 'without a key, path variants, HEAD, a method-override POST and OPTIONS give no records and no X-Total-Count',
  evidence: 'an answer (not a transport error) to at least one of the other roads',
  skip: ({ operation }) => (operation.apiKeyHeader ? undefined : notApplicable('the operation is not secured by an API key')),
  async run(context) {
    const roads = otherRoads(context.operation.path, context.pathsAsWritten);
    const findings: Finding[] = [];
    const unseen: { label: string; exchange: Exchange }[] = [];
    const answers = await sendEach(context, roads, (road) => context.send({}, road.options));
    for (const [i, road] of roads.entries()) {
      const exchange = answers[i]!;
      if (!exchange.response) unseen.push({ label: road.label, exchange });
      if (!givesData(context, exchange)) continue;
      const response = exchange.response!;
      const total = countHeader(context, exchange);
      findings.push({
        severity: 'error',
        message: `${road.label}, without any key, gives the listing's data`,
        expected: 'no records and no X-Total-Count without the key',
        actual: `${response.status}${total ? ` X-Total-Count: ${total}` : ''} ${preview(response.text, 60)}`,
        exchange,
        absolute: true,
      });
    }
    if (unseen.length === roads.length) return noEvidence(`no other road got an answer: ${describeAnswers(unseen.map((u) => u.exchange))}`);
    // Dot segments reach a target only unparsed: one in process gets them resolved, so they went unsent.
    const unsent = context.pathsAsWritten
      ? []
      : [
          `the dot segments (/.${context.operation.path}, /x/..${context.operation.path}): an in-process target gets URLs parsed, not as written`,
        ];
    return partly(findings, [...unanswered('other roads', roads.length, unseen), ...unsent]);
  },
};
