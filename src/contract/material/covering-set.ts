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
import { pairsOf, type ParameterClasses } from '../model/pair-tally.ts';

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
 * In the order that holds the most pairs early (see mostPairsFirst): a run planned to fit its time judges the
 * first `--covering N`.
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
  const requests = layout(sizes).map(({ size: i, classes: wanted }): CoveringRequest => {
    const choices = drawn.get(wanted.search);
    const term = choices?.[i % choices.length];
    const page: PagePosition | undefined = wanted.page === 'absent' ? undefined : pages.get(wanted.page as PagePosition['at'])![i];
    const size = sizes[i]!.size;
    return {
      request: {
        ...(term ? { term } : {}),
        ...(page ? { page } : {}),
        ...(size !== undefined ? { pageSize: size } : {}),
      },
      classes: { ...wanted, search: term ? wanted.search : 'absent' },
    };
  });
  return { requests, pairs: pairsTotal(new Set(sizes.map((s) => s.label)).size) };
}

/** The order of each set of page-size classes, made once (it depends on nothing else). */
const layouts = new Map<string, Slot[]>();

/** One request of the covering set before its values are drawn: its classes, its size class, the term it takes. */
interface Slot {
  readonly size: number;
  readonly classes: ParameterClasses;
  /** Which drawn term of its class (`whole 2`); none for a request without a term, or with the empty one. */
  readonly term?: string;
}

/**
 * The covering set's requests as classes, in the order judged (see mostPairsFirst): one per (pageSize, search)
 * pair, the page class turning with both ((i + j) mod 6). The same for every seed and model: a run can be
 * planned on it before the listing is read.
 */
function layout(sizes: readonly SizeClass[]): Slot[] {
  const key = sizes.map((s) => s.label).join('|');
  if (!layouts.has(key)) {
    const slots = sizes.flatMap((size, i) =>
      SEARCH_CLASSES.map((search, j): Slot => {
        const drawn = search === 'hazard' ? HAZARDS : TERMS;
        return {
          size: i,
          classes: { page: PAGE_CLASSES[(i + j) % PAGE_CLASSES.length]!, pageSize: size.label, search },
          ...(search === 'absent' || search === 'empty' ? {} : { term: `${search} ${i % drawn}` }),
        };
      }),
    );
    layouts.set(key, mostPairsFirst(slots));
  }
  return layouts.get(key)!;
}

/** What the covering set costs a listing, prefix by prefix: what a run planned to fit its time trims by. */
export interface CoveringCosts {
  /** For every k from 0 to the set's length, what its first k requests send: searches (with one or two reference pages per term first sent) and plain pages. */
  readonly prefixes: readonly { readonly searches: number; readonly pages: number }[];
  /** The fewest first requests that hold every class of every parameter. */
  readonly everyClass: number;
}

/**
 * What the covering set of a listing with these parameters costs, prefix by prefix (the same for every seed).
 *
 * @example
 * const { prefixes, everyClass } = coveringCosts(context.parameters);
 * prefixes.length - 1; // 112 requests; prefixes[everyClass]: what judging every class once costs
 */
export function coveringCosts(parameters: ListingParameters): CoveringCosts {
  const terms = new Set<string>();
  const classes = new Set<string>();
  const slots = layout(sizeClasses(parameters, 0));
  const every = new Set(slots.flatMap(({ classes: c }) => Object.entries(c).map((e) => e.join(' ')))).size;
  const prefixes = [{ searches: 0, pages: 0 }];
  let everyClass = 0;
  for (const slot of slots) {
    const last = prefixes.at(-1)!;
    prefixes.push(
      slot.term === undefined
        ? { searches: last.searches, pages: last.pages + 1 }
        : { searches: last.searches + searchesOf(slot, terms), pages: last.pages },
    );
    if (slot.term !== undefined) terms.add(slot.term);
    for (const c of Object.entries(slot.classes)) classes.add(c.join(' '));
    if (everyClass === 0 && classes.size === every) everyClass = prefixes.length - 1;
  }
  return { prefixes, everyClass };
}

/**
 * What a covering request costs, in searches, as the order counts it: a search, and for a term not sent before
 * the reference pages it is judged against (one or two more); a request without a term is a plain page, which
 * a real backend serves some twenty times faster. Fixed ratios, so the order depends on the seed alone.
 */
const COST = { search: 1, newTerm: 1.5, page: 0.05 } as const;

/** The searches a slot with a term costs, after the terms in `sent` were sent: its own, and a new term's reference pages. */
const searchesOf = ({ term }: Slot, sent: ReadonlySet<string>) => COST.search + (term !== undefined && sent.has(term) ? 0 : COST.newTerm);

/**
 * The requests reordered so that every prefix holds many pairs for its cost: each next request the first (in the
 * made order) of those adding a class not yet seen, else of those adding the most pairs not yet held per search
 * they cost (see COST). A trimmed set keeps every class early and the cheap pairs, and loses pairs of classes
 * already seen.
 */
function mostPairsFirst(slots: readonly Slot[]): Slot[] {
  const held = new Set<string>();
  const seen = new Set<string>();
  const terms = new Set<string>();
  // Each slot's pairs and classes as keys, made once: the choice below looks at every slot left at every step.
  const left = slots.map((slot) => ({
    slot,
    pairs: pairsOf(slot.classes),
    classes: Object.entries(slot.classes).map(([parameter, c]) => `${parameter} ${c}`),
  }));
  const ordered: Slot[] = [];
  while (left.length > 0) {
    let best = 0;
    let most = -1;
    for (const [i, { slot, pairs, classes }] of left.entries()) {
      let adds = 0;
      for (const pair of pairs) if (!held.has(pair)) adds += 1;
      const fresh = classes.some((c) => !seen.has(c)) ? 1_000 : 0;
      const worth = fresh + adds / (slot.term === undefined ? COST.page : searchesOf(slot, terms));
      if (worth > most) [best, most] = [i, worth];
    }
    const [next] = left.splice(best, 1);
    for (const pair of next!.pairs) held.add(pair);
    for (const c of next!.classes) seen.add(c);
    if (next!.slot.term !== undefined) terms.add(next!.slot.term);
    ordered.push(next!.slot);
  }
  return ordered;
}
