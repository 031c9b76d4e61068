import { describeAnswers, needRecords } from '../model/answers.ts';
import { identities, recordsOf } from '../records.ts';
import { pageQuery, firstPage } from '../model/listing-query.ts';
import { withListing, type ScenarioCheck } from '../model/check.ts';
import type { Finding, Exchange } from '../types.ts';
import { partly } from '../model/skip.ts';
import type { OperationContext } from '../model/context.ts';
import { noMatchTerm } from '../material/search-term.ts';
import { comparedByVersions } from '../model/compared-by-versions.ts';

/**
 * The same request twice gives the same records in the same order; and on one connection, a request is answered
 * for itself, not for the request before it (a server keeping a connection's last search or page).
 */
export const stableOrder: ScenarioCheck = {
  name: 'stable_order',
  kind: 'scenario',
  description: 'the same request twice gives the same records in the same order',
  evidence: 'two 200 arrays of at least 2 records for the same request',
  run: withListing(2, async (context) => {
    const query = pageQuery(context, firstPage(context.parameters), 10);
    const first = await context.send(query);
    const second = await context.send(query);
    const unusable = needRecords([first, second], 'the same request sent twice');
    if (unusable) return unusable;
    const [x, y] = [identities(recordsOf(first)!), identities(recordsOf(second)!)];
    const leaks = await stateOnConnection(context);
    if (x.join() === y.join()) return partly(leaks.findings, leaks.notObserved);
    return partly(
      [
        ...leaks.findings,
        {
          severity: 'error',
          message: 'the same request gave different records or order',
          expected: x.join(', '),
          actual: y.join(', '),
          exchange: second,
          exchanges: [first, second],
          // Each answered as a version of the listing gives it: the versions moved between them (replicas apart,
          // arrivals), or moved forward between the two on one connection.
          ...comparedByVersions(context, [first, second], { overTime: true }),
        },
      ],
      leaks.notObserved,
    );
  }),
};

/**
 * State leaking between requests on one connection: on a connection of its own, the listing's first page asked
 * plainly, then another request (a search no record can contain; the next page), then the first page again.
 * When the first page then gets the other request's answer, though before it, and on a new connection after
 * it, it got its own, the server answered a request with an earlier one's state. Over the network only: an
 * in-process target has no connections. Where the answers cannot show a leak (no 200 arrays, or the other request
 * answered like the first page), that probe is not observed.
 */
async function stateOnConnection(context: OperationContext): Promise<{ findings: Finding[]; notObserved: string[] }> {
  const claim = 'a request answered for itself on one connection';
  if (!context.sendOnOneConnection)
    return { findings: [], notObserved: [`${claim}: the kit cannot choose its connection here (an in-process target, a proxy)`] };
  const { page, pageSize, search } = context.parameters;
  const plain = { [pageSize.name]: '10' };
  const others = [
    { what: 'a search', query: { ...plain, [search.name]: noMatchTerm(context.seed) } },
    { what: 'the next page', query: { ...plain, [page.name]: String(firstPage(context.parameters) + 1) } },
  ];
  const findings: Finding[] = [];
  const notObserved: string[] = [];
  for (const other of others) {
    const [before, between, after] = await context.sendOnOneConnection([{ query: plain }, { query: other.query }, { query: plain }]);
    const ids = (exchange: Exchange) => {
      const records = recordsOf(exchange);
      return records && identities(records).join();
    };
    const [b, o, a] = [ids(before!), ids(between!), ids(after!)];
    if (b === undefined || o === undefined || a === undefined) {
      notObserved.push(`${claim} after ${other.what}: ${describeAnswers([before!, between!, after!].filter((e) => !recordsOf(e)))}`);
      continue;
    }
    if (o === b) {
      notObserved.push(`${claim} after ${other.what}: both got the same records, so one answered for the other would not show`);
      continue;
    }
    if (a === b || a !== o) continue;
    // The first page once more, on a connection of its own again: a listing that changed meanwhile shows here.
    const [again] = await context.sendOnOneConnection([{ query: plain }]);
    const control = recordsOf(again!);
    if (!control || identities(control).join() !== b) continue;
    findings.push({
      severity: 'error',
      message: `on one connection, the first page asked after ${other.what} got that request's answer, not its own (state leaking between requests)`,
      expected: `its own records, as before it on that connection and on a new one after it: ${b || '[]'}`,
      actual: `the answer of ${Object.entries(other.query)
        .map(([n, v]) => `${n}=${v}`)
        .join('&')}: ${a || '[]'}`,
      exchange: after!,
      exchanges: [before!, between!, after!],
      absolute: true,
    });
  }
  return { findings, notObserved };
}
