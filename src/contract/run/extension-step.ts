// How much more of a trimmed plan the time left holds: the next batch, priced at the plan's estimate times what
// the run has measured against it.
import { type Breadth, termsAt } from './plan-run.ts';

/** What the next batch is chosen from. */
export interface StepPricing {
  /** The plan as asked (where an extension ends) and as judged so far. */
  readonly asked: Breadth;
  readonly at: Breadth;
  /** The plan's estimate of a breadth, in ms (see Planned.cost). */
  readonly cost: (breadth: Breadth) => number;
  /** What the run took over what the plan estimated, so far (1: as estimated). */
  readonly ratio: number;
  /** Time the batch may take: to the extension's cutoff. */
  readonly msLeft: number;
  /** The most covering requests (or, once they are all judged, special terms) a batch adds. */
  readonly most: number;
}

/**
 * The next batch: the most covering requests, up to `most`, whose price fits `msLeft`, the special terms at the
 * same share of the plan (see termsAt); once the covering set is whole, the special terms left alone. Undefined
 * when even one more does not fit, or nothing is left.
 *
 * @example
 * const next = nextStep({ asked, at: used, cost, ratio: 1.1, msLeft: 40_000, most: 14 });
 * // { examples: 1, covering: 47, specialTerms: 21 }
 */
export function nextStep({ asked, at, cost, ratio, msLeft, most }: StepPricing): Breadth | undefined {
  const price = (breadth: Breadth) => ratio * (cost(breadth) - cost(at));
  const covering = (n: number): Breadth => ({
    ...at,
    covering: n,
    specialTerms: Math.min(asked.specialTerms, Math.max(at.specialTerms, termsAt(asked, n))),
  });
  const terms = (n: number): Breadth => ({ ...at, specialTerms: n });
  const [grow, from, to] =
    at.covering < asked.covering ? [covering, at.covering, asked.covering] : [terms, at.specialTerms, asked.specialTerms];
  let next: Breadth | undefined;
  // The price grows with each request added: the first that does not fit ends the batch.
  for (let n = from + 1; n <= Math.min(to, from + most) && price(grow(n)) <= msLeft; n += 1) next = grow(n);
  return next;
}
