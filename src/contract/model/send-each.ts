// Requests a check sends for a fixed list of items: at once when the run may have requests in flight.
import type { OperationContext } from './context.ts';

/**
 * `send` for each item, the answers in the items' order: all at once when the run may have requests in flight
 * (each request is made, so placed, in the items' order before any answer is awaited), else one after another.
 * A check judging a fixed list of probes does not wait for each in turn behind the explorations' requests.
 *
 * @example
 * const answers = await sendEach(context, terms, (term) => context.send({ search: term }));
 */
export async function sendEach<T, R>(
  context: OperationContext,
  items: readonly T[],
  send: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (context.concurrency > 1) return Promise.all(items.map((item, i) => send(item, i)));
  const answers: R[] = [];
  for (const [i, item] of items.entries()) answers.push(await send(item, i));
  return answers;
}
