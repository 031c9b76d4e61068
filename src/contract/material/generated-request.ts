import fc from 'fast-check';
import type { ListingParameters } from '../../spec/listing-parameters.ts';
import { hazardTerms } from './hazard-terms.ts';
import { swapCase } from './case-forms.ts';
import type { ListingModel } from './listing-model.ts';

/** How a generated search term relates to the data: it decides what the answer must be. */
export type TermKind = 'whole' | 'fragment' | 'recased' | 'absent-term' | 'hazard' | 'empty';

/** A search term and how it was made. */
export interface Term {
  readonly kind: TermKind;
  readonly text: string;
}

/** Where a generated page falls, resolved against the number of records the model expects for the term. */
export type PagePosition =
  | { readonly at: 'first' }
  | { readonly at: 'middle'; readonly fraction: number }
  | { readonly at: 'last' }
  | { readonly at: 'past' }
  | { readonly at: 'far'; readonly page: number };

/** A generated listing request: each part may be absent, to test defaults and their combinations. */
export interface GeneratedRequest {
  readonly term?: Term;
  readonly page?: PagePosition;
  readonly pageSize?: number;
  /** Sent without the right key: the index of a wrong-credentials variant (see `wrongCredentials`). */
  readonly credentials?: number;
}

/** A generated request made concrete: the query to send and the page and size it asks for. */
export interface ResolvedRequest {
  readonly query: Record<string, string>;
  readonly term: Term | undefined;
  readonly page: number;
  readonly size: number;
  /** The last page of the model's expected results for the term (1 when there are none). */
  readonly last: number;
}

const NO_MATCH_ALPHABET = [...'bcdfghjkmnpqrstvwxz0123456789'];

/** Swaps the case of every letter, or of some, keeping at least one change when the text has letters. */
const recase = (text: string, mask: number) => [...text].map((c, i) => ((mask >> (i % 31)) & 1 || i === 0 ? swapCase(c) : c)).join('');

/**
 * Terms drawn from the model, by kind: whole values, fragments of them, either in other letter case, a
 * term no record can contain (high entropy, never shrunk: a shrunk one might occur), a hazard term (SQL
 * wildcards, regex, literals...: see hazard-terms.ts), and the empty term. Kinds drawn from the records'
 * values are absent when the model holds none.
 */
export function termArbitraries(model: ListingModel): Partial<Record<TermKind, fc.Arbitrary<Term>>> {
  const absent = fc
    .noShrink(fc.string({ unit: fc.constantFrom(...NO_MATCH_ALPHABET), minLength: 20, maxLength: 20 }))
    .map((s): Term => ({ kind: 'absent-term', text: `zq${s}` }));
  const empty = fc.constant<Term>({ kind: 'empty', text: '' });
  const hazard = fc.constantFrom(...hazardTerms()).map(({ term }): Term => ({ kind: 'hazard', text: term }));
  if (model.values.length === 0) return { 'absent-term': absent, hazard, empty };
  const value = fc.nat({ max: model.values.length - 1 }).map((i) => model.values[i]!);
  const whole = value.map((text): Term => ({ kind: 'whole', text }));
  const fragment = fc
    .tuple(value, fc.nat(), fc.integer({ min: 2, max: 12 }))
    .filter(([text]) => text.length >= 2)
    .map(([text, start, length]): Term => {
      const from = start % (text.length - 1);
      return { kind: 'fragment', text: text.slice(from, Math.min(text.length, from + length)) };
    });
  const recased = fc
    .tuple(fc.oneof(whole, fragment), fc.nat())
    .map(([term, mask]): Term => ({ kind: 'recased', text: recase(term.text, mask) }));
  return { whole, fragment, recased, 'absent-term': absent, hazard, empty };
}

/** How often each kind of term is drawn: mostly terms that find records, where the slice rules bite. */
const TERM_WEIGHTS: Record<TermKind, number> = { whole: 3, fragment: 3, recased: 2, 'absent-term': 1, hazard: 1, empty: 1 };

/** A term of any kind ({@link termArbitraries}), weighted towards terms that find records. */
export function termArbitrary(model: ListingModel): fc.Arbitrary<Term> {
  const kinds = Object.entries(termArbitraries(model)) as [TermKind, fc.Arbitrary<Term>][];
  return fc.oneof(...kinds.map(([kind, arbitrary]) => ({ arbitrary, weight: TERM_WEIGHTS[kind] })));
}

/** Page positions by class: first, middle, last, just past the end, and far past it up to 2^53 - 1. */
export const PAGE_POSITIONS: Readonly<Record<PagePosition['at'], fc.Arbitrary<PagePosition>>> = {
  first: fc.constant<PagePosition>({ at: 'first' }),
  middle: fc.double({ min: 0, max: 1, noNaN: true }).map((fraction): PagePosition => ({ at: 'middle', fraction })),
  last: fc.constant<PagePosition>({ at: 'last' }),
  past: fc.constant<PagePosition>({ at: 'past' }),
  far: fc
    .oneof(fc.integer({ min: 2, max: 2 ** 31 - 1 }), fc.constant(Number.MAX_SAFE_INTEGER))
    .map((page): PagePosition => ({ at: 'far', page })),
};

/** A page position of any class. */
export const pageArbitrary: fc.Arbitrary<PagePosition> = fc.oneof(...Object.values(PAGE_POSITIONS));

/** The page sizes the spec allows (1..100 where it states no bound). */
export function pageSizeRange({ pageSize }: ListingParameters): { readonly min: number; readonly max: number } {
  return {
    min: typeof pageSize.schema.minimum === 'number' ? pageSize.schema.minimum : 1,
    max: typeof pageSize.schema.maximum === 'number' ? pageSize.schema.maximum : 100,
  };
}

/** Generated requests over the spec's page-size range, each part present or not. */
export function requestArbitrary(model: ListingModel, parameters: ListingParameters, credentials = 0): fc.Arbitrary<GeneratedRequest> {
  const { min, max } = pageSizeRange(parameters);
  const size = fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
  // Absent first, so a failure shrinks towards the plainest request; present more often, so most requests
  // pin a page and size (where the slice rules bite) and a good share search nothing (full pages).
  const maybe = <T>(arbitrary: fc.Arbitrary<T>, weight: number) =>
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary, weight });
  return fc
    .record({
      term: maybe(termArbitrary(model), 2),
      page: maybe(pageArbitrary, 4),
      pageSize: maybe(size, 4),
      // One request in ten goes without the right key, when the caller has wrong credentials to send.
      credentials:
        credentials > 0
          ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: fc.nat({ max: credentials - 1 }), weight: 1 })
          : fc.constant(undefined),
    })
    .map(
      ({ term, page, pageSize, credentials: wrong }): GeneratedRequest => ({
        ...(term ? { term } : {}),
        ...(page ? { page } : {}),
        ...(pageSize !== undefined ? { pageSize } : {}),
        ...(wrong !== undefined ? { credentials: wrong } : {}),
      }),
    );
}

/** Makes a generated request concrete: page positions become page numbers for the model's result count. */
export function resolveRequest(request: GeneratedRequest, model: ListingModel, parameters: ListingParameters): ResolvedRequest {
  const size = request.pageSize ?? Number(parameters.pageSize.schema.default);
  const count = model.count(request.term?.text ?? '');
  const last = Math.max(1, Math.ceil(count / size));
  const position = request.page;
  const page =
    position === undefined
      ? Number(parameters.page.schema.default)
      : position.at === 'first'
        ? 1
        : position.at === 'middle'
          ? 1 + Math.floor(position.fraction * (last - 1))
          : position.at === 'last'
            ? last
            : position.at === 'past'
              ? last + 1
              : Math.max(position.page, last + 2);
  const query: Record<string, string> = {};
  if (request.term) query[parameters.search.name] = request.term.text;
  if (request.page) query[parameters.page.name] = String(page);
  if (request.pageSize !== undefined) query[parameters.pageSize.name] = String(size);
  return { query, term: request.term, page, size, last };
}
