/** Which class of each parameter a covering request holds: `{ page: 'past', pageSize: '41..50', search: 'hazard' }`. */
export interface ParameterClasses {
  readonly page: string;
  readonly pageSize: string;
  readonly search: string;
}

/** The pairs of classes a request holds: one per two parameters. */
export const pairsOf = ({ page, pageSize, search }: ParameterClasses): string[] => [
  `page ${page} × pageSize ${pageSize}`,
  `page ${page} × search ${search}`,
  `pageSize ${pageSize} × search ${search}`,
];

/** The pairs of classes the judged covering requests of an operation held, out of all pairs. */
export interface PairTally {
  /** Counts the pairs of a request some exploration check judged (its answer was evidence). */
  judged(classes: ParameterClasses): void;
  /** Sets how many pairs there are to cover. */
  expect(total: number): void;
  /** Pairs covered and pairs in all, or undefined when no exploration ran. */
  summary(): { readonly covered: number; readonly total: number } | undefined;
}

/** A tally of the pairs covered, for one operation. */
export function createPairTally(): PairTally {
  const covered = new Set<string>();
  let total: number | undefined;
  return {
    judged: (classes) => {
      for (const pair of pairsOf(classes)) covered.add(pair);
    },
    expect: (n) => {
      total = n;
    },
    summary: () => (total === undefined ? undefined : { covered: covered.size, total }),
  };
}
