// A finding that compares answers, judged again by the versions rule: each answer alone, then all by one version.
import type { Exchange, Finding } from '../types.ts';
import { versionAt } from '../versions/history.ts';
import type { Claim } from '../versions/rule.ts';
import type { OperationContext } from './context.ts';
import { headQuery } from './head-read.ts';
import { countOf, sentClaim, sentQuery } from './listing-query.ts';

/** Times the compared requests are asked again together when no one version gave the answers they compare. */
const ROUNDS = 3;

/** How a comparison's answers are judged: each by a version of its own, or all by one. */
export interface Compared {
  /** Narrows what a request claims (the count alone, for one); the page its query asked for when absent. */
  readonly claimOf?: (sent: Claim) => Claim;
  /**
   * Whether each answer may be a version of its own (answers that one store need not give together: a search
   * index beside the listing's own reads).
   */
  readonly eachAlone?: boolean;
  /**
   * A claim over time (the same request asked again after its answer): answers on one connection, each asked after
   * the one before was answered, also pass when given by versions that never go back (reads of one replica never move
   * back in time). Answers going back, or on connections apart, are held to one version as any others.
   */
  readonly overTime?: boolean;
}

/**
 * What a finding comparing `compared` carries to be judged again by the versions rule with all the run saw (see
 * Failure.rejudge). It stands, in words naming the versions, when one of its answers no admissible version gives.
 * When each is given by one, the answers are then held to one version: it is dropped when one admissible version
 * gives them all (they disagree only as the versions do), or when, asked again together (up to {@link ROUNDS} times,
 * each twice in a row, from another place each time, to reach other replicas), one version gives an answer to each; else it stands, naming the versions
 * that gave each. `eachAlone` stops at each answer alone.
 *
 * @example
 * findings.push({ severity: 'error', message, exchanges: [first, second], ...comparedByVersions(context, [first, second]) });
 */
export function comparedByVersions(
  context: Pick<OperationContext, 'versions' | 'parameters' | 'sendTogether' | 'operation'>,
  compared: readonly Exchange[],
  how: Compared = {},
): Pick<Finding, 'rejudge'> {
  const claimOf = (exchange: Exchange) => (how.claimOf ?? ((sent: Claim) => sent))(sentClaim(context.parameters, exchange));
  return {
    async rejudge() {
      const together = !how.eachAlone && compared.length > 1;
      /** The answers showing a version newer than any read of the head while replicas were apart, and why. */
      const newer = new Map<number, string>();
      for (const [i, exchange] of compared.entries()) {
        const judged = await context.versions.judge(exchange, claimOf(exchange));
        if (judged.kind === 'unknown' && !(judged.newer && together)) return { unknown: judged.why };
        if (judged.kind === 'unexplained') return { named: `an answer it compares is given by no version (${judged.why})` };
        if (judged.kind === 'unknown') newer.set(i, judged.why);
      }
      if (!together) return false;
      if (
        newer.size === 0 &&
        (givenByTheirCounts(context, compared, claimOf) || (how.overTime && forwardOnOneConnection(context, compared, claimOf)))
      )
        return false;
      const copies = compared.map((exchange) => [exchange]);
      /** Whether, in each round, a request asked twice at once was answered from two versions: data too quick for one. */
      let movedEachRound = true;
      let met = oneVersion(context, copies, claimOf);
      for (let round = 0; round < ROUNDS && !met; round += 1) {
        // Asked before the &&=, which would skip it once a round did not move.
        const moved = await askTogether(context, copies, round, claimOf);
        movedEachRound &&= moved;
        met = oneVersion(context, copies, claimOf);
      }
      // An answer newer than any read of the head stands only when every asking of its request was newer too: a
      // replica behind answering it as a version the run read says nothing of the answer the check compared.
      if (newer.size > 0)
        return [...newer.keys()].every((i) => copies[i]!.length === 1)
          ? { named: apartInWords(context, compared, claimOf, [...newer.keys()]) }
          : { unknown: [...newer.values()][0]! };
      if (met) return false;
      return movedEachRound
        ? { unknown: `the listing moved on while the answers it compares were asked again together, each of ${ROUNDS} times` }
        : { named: apartInWords(context, compared, claimOf, []) };
    },
  };
}

/**
 * Whether each answer is given by the version its own count names (see ListingHistory.fixedTail): each then is
 * right for the moment it was made, however far apart from the others, as when a target answering one request at a
 * time while records arrive never answers two at one moment.
 */
function givenByTheirCounts(
  context: Pick<OperationContext, 'versions' | 'operation'>,
  compared: readonly Exchange[],
  claimOf: (exchange: Exchange) => Claim,
): boolean {
  const tail = context.versions.history.fixedTail();
  return (
    tail !== undefined &&
    compared.every((exchange) => {
      const count = countOf(context, exchange);
      return count !== undefined && (context.versions.giving(exchange, { ...claimOf(exchange), count: true }) ?? []).includes(tail + count);
    })
  );
}

/**
 * Whether the answers, on one connection and each asked after the one before was answered, are given by versions
 * that never go back: a version for each, none older than the one before it.
 */
function forwardOnOneConnection(
  context: Pick<OperationContext, 'versions'>,
  compared: readonly Exchange[],
  claimOf: (exchange: Exchange) => Claim,
): boolean {
  const connection = compared[0]?.response?.connection;
  if (connection === undefined) return false;
  let at = Number.NEGATIVE_INFINITY;
  for (const [i, exchange] of compared.entries()) {
    const before = compared[i - 1]?.span;
    if (exchange.response?.connection !== connection) return false;
    if (before && (!exchange.span || exchange.span.sent < before.answered)) return false;
    const tops = (context.versions.giving(exchange, claimOf(exchange)) ?? []).filter((top) => top >= at);
    if (tops.length === 0) return false;
    at = Math.min(...tops);
  }
  return true;
}

/** Whether one version gives an answer to each request: the versions giving each request's answers meet. */
function oneVersion(
  context: Pick<OperationContext, 'versions'>,
  copies: readonly (readonly Exchange[])[],
  claimOf: (exchange: Exchange) => Claim,
): boolean {
  const tops = copies.map((answers) => new Set(answers.flatMap((e) => context.versions.giving(e, claimOf(e)) ?? [])));
  return [...tops[0]!].some((top) => tops.every((set) => set.has(top)));
}

/**
 * The compared requests sent again together, each answer judged and kept with its request's (`copies`). Each
 * request goes twice in a row, so that replicas taking requests in turn answer it from two of them; each `round`
 * starts one place further on, so that a pool handing its connections out in the same order each time (connections
 * pinned to replicas) gives each request other connections; a read of the head ends the group. True when one
 * request's two answers, sent at once, no one version gave (the listing moved on between them).
 */
async function askTogether(
  context: Pick<OperationContext, 'versions' | 'sendTogether' | 'parameters'>,
  copies: Exchange[][],
  round: number,
  claimOf: (exchange: Exchange) => Claim,
): Promise<boolean> {
  const twice = copies.flatMap((_, i) => [i, i]);
  const order = [...twice.slice(round % twice.length), ...twice.slice(0, round % twice.length)];
  const queries = order.map((i) => ({ query: sentQuery(copies[i]![0]!) }));
  const answers = await Promise.all(context.sendTogether([...queries, { query: headQuery(context) }]));
  const explained: Exchange[][] = copies.map(() => []);
  for (const [n, i] of order.entries()) {
    const answer = answers[n]!;
    if ((await context.versions.judge(answer, claimOf(answer))).kind === 'explained') explained[i]!.push(answer);
  }
  for (const [i, pair] of explained.entries()) copies[i]!.push(...pair);
  return explained.some((pair) => pair.length === 2 && !oneVersion(context, [[pair[0]!], [pair[1]!]], claimOf));
}

/**
 * The answers held to one version, in words: the versions that gave each, none of them all; those in `newer`
 * showed a version newer than any read of the head each time their request was asked.
 */
function apartInWords(
  context: Pick<OperationContext, 'versions'>,
  compared: readonly Exchange[],
  claimOf: (exchange: Exchange) => Claim,
  newer: readonly number[],
): string {
  const { versions } = context;
  const each = compared.map((exchange, i) => {
    if (newer.includes(i)) return `answer ${i + 1} by a version newer than any read of the head showed, each time it was asked`;
    const top = versions.giving(exchange, claimOf(exchange))?.[0];
    return `answer ${i + 1} by ${top === undefined ? 'none the run read' : versions.describe(versionAt(versions.history, top))}`;
  });
  return `no one version of the listing gives the answers it compares (${each.join('; ')}), nor did one when they were asked again together ${ROUNDS} times`;
}
