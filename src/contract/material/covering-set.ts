import fc from 'fast-check';
import type { ListingParameters } from '../../spec/listing-parameters.ts';
import { hazardTerms } from './hazard-terms.ts';
import {
  PAGE_POSITIONS,
  pageSizeRange,
  termArbitraries,
  type GeneratedRequest,
  type PagePosition,
  type Term,
  type TermKind,
} from './generated-request.ts';
import type { ListingModel } from './listing-model.ts';
import type { ParameterClasses } from '../model/pair-tally.ts';

/** The classes of page the covering set crosses with the others. */
const PAGE_CLASSES = ['absent', 'first', 'middle', 'last', 'past', 'far'] as const;
/** The classes of search term: absent, or a term of each kind (see termArbitraries). */
const SEARCH_CLASSES = ['absent', 'empty', 'whole', 'fragment', 'recased', 'absent-term', 'hazard'] as const;

/** A request of the covering set, and the class of each of its parameters. */
export interface CoveringRequest {
  readonly request: GeneratedRequest;
  readonly classes: ParameterClasses;
}

/** Terms drawn per kind of term, and hazard terms (of those in hazard-terms.ts) per covering set. */
const TERMS = 4;
const HAZARDS = 8;

/** A page-size class: its label, and the size it sends (drawn from the seed for a range; none when absent). */
interface SizeClass {
  readonly label: string;
  readonly size?: number;
}

/**
 * The page-size classes over the spec's range min..max: absent, min, min + 1, a small odd size, one size from
 * each tenth of the range, max - 1 and max (for 1..100: absent, 1, 2, 3|5|7, 1..10, ..., 91..100, 99, 100).
 */
function sizeClasses(parameters: ListingParameters, seed: number): SizeClass[] {
  const { min, max } = pageSizeRange(parameters);
  const clamp = (n: number) => Math.min(max, Math.max(min, n));
  const draw = (lo: number, hi: number, salt: number) => fc.sample(fc.integer({ min: lo, max: hi }), { seed: seed + salt, numRuns: 1 })[0]!;
  const span = max - min + 1;
  const tenths = Array.from({ length: 10 }, (_, k) => {
    const lo = clamp(min + Math.floor((k * span) / 10));
    const hi = Math.max(lo, clamp(min + Math.floor(((k + 1) * span) / 10) - 1));
    return { label: `${lo}..${hi}`, size: draw(lo, hi, 101 + k) };
  });
  // An odd size a few above the smallest: 3, 5 or 7 over 1..100.
  const odd = clamp(min + 2 * draw(1, 3, 100));
  return [
    { label: 'absent' },
    { label: String(min), size: min },
    { label: String(clamp(min + 1)), size: clamp(min + 1) },
    { label: 'small odd', size: odd },
    ...tenths,
    { label: String(clamp(max - 1)), size: clamp(max - 1) },
    { label: String(max), size: max },
  ];
}

/** Every pair of classes of two parameters: what a covering set over these classes must hold. */
export const pairsTotal = (sizes: number) =>
  PAGE_CLASSES.length * sizes + PAGE_CLASSES.length * SEARCH_CLASSES.length + sizes * SEARCH_CLASSES.length;

/**
 * A deterministic covering set over the listing parameters' classes: every pair of classes of any two of page,
 * pageSize and search is in some request, whatever the seed (which only draws the values inside a class: the
 * size within a tenth, the record a term is taken from, the hazard term, how far past the end). One request per
 * (pageSize, search) pair, the page class turning with both ((i + j) mod 6), so each pageSize class (7 requests)
 * and each search class (16) meets all 6 page classes: 112 requests where 250 pairs are to be covered. A search
 * class the model cannot give (no values to take a term from) goes absent, keeping the request's other pairs.
 *
 * @example
 * const { requests, pairs } = coveringSet(model, context.parameters, context.seed);
 * // requests[0].classes: { page: 'absent', pageSize: 'absent', search: 'absent' }; pairs: 250
 */
export function coveringSet(
  model: ListingModel,
  parameters: ListingParameters,
  seed: number,
): { requests: CoveringRequest[]; pairs: number } {
  const sizes = sizeClasses(parameters, seed);
  const terms = termArbitraries(model);
  // Drawn per class, so one class's draws do not move another's. A few terms per class, each in several
  // requests (other sizes, other pages): every term costs the reference pages it is judged against.
  const drawn = new Map<string, Term[]>();
  const hazards = fc.sample(fc.shuffledSubarray(hazardTerms(), { minLength: HAZARDS, maxLength: HAZARDS }), { seed, numRuns: 1 })[0]!;
  drawn.set(
    'hazard',
    hazards.map(({ term }): Term => ({ kind: 'hazard', text: term })),
  );
  for (const [i, kind] of SEARCH_CLASSES.entries()) {
    const arbitrary = kind === 'absent' || kind === 'hazard' ? undefined : terms[kind as TermKind];
    if (arbitrary) drawn.set(kind, fc.sample(arbitrary, { seed: seed + 1 + i, numRuns: TERMS }));
  }
  const pages = new Map(
    PAGE_CLASSES.filter((c) => c !== 'absent').map((c, i) => [
      c,
      fc.sample(PAGE_POSITIONS[c], { seed: seed + 11 + i, numRuns: sizes.length }),
    ]),
  );
  const requests: CoveringRequest[] = [];
  for (const [i, size] of sizes.entries()) {
    for (const [j, wanted] of SEARCH_CLASSES.entries()) {
      const pageClass = PAGE_CLASSES[(i + j) % PAGE_CLASSES.length]!;
      const choices = drawn.get(wanted);
      const term = choices?.[i % choices.length];
      const search = term ? wanted : 'absent';
      const page: PagePosition | undefined = pageClass === 'absent' ? undefined : pages.get(pageClass)![i];
      requests.push({
        request: {
          ...(term ? { term } : {}),
          ...(page ? { page } : {}),
          ...(size.size !== undefined ? { pageSize: size.size } : {}),
        },
        classes: { page: pageClass, pageSize: size.label, search },
      });
    }
  }
  return { requests, pairs: pairsTotal(new Set(sizes.map((s) => s.label)).size) };
}
