// What an unknown option most likely meant: the nearest option of the same command, or the command the option
// belongs to. No node: import: a Worker bundles the parser.
import leven from 'leven';
import type { FlagShape } from './flag-shape.ts';

/** Edits a typo may be from what it meant: at most 2, and at most half its length (`--ab` is not `--xy`). */
const near = (typo: string, name: string): number | undefined => {
  const distance = leven(typo, name, { maxDistance: 3 });
  return distance <= 2 && distance * 2 <= typo.length ? distance : undefined;
};

/** The nearest of `names` to `typo`, if one is near (ties: the first listed). */
function nearest(typo: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = near(typo, name);
    if (distance !== undefined && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** `contract`, `contract and proxy`: the commands that have a flag. */
const commandsWith = (name: string, others: Readonly<Record<string, readonly FlagShape[]>>) =>
  Object.entries(others)
    .filter(([, flags]) => flags.some((flag) => flag.name === name))
    .map(([command]) => command);

const and = (words: readonly string[]) => new Intl.ListFormat('en', { type: 'conjunction' }).format(words);

/** `a contract option, not a serve one`. */
const whose = (name: string, command: string, others: Readonly<Record<string, readonly FlagShape[]>>) =>
  `a ${and(commandsWith(name, others))} option, not a ${command} one`;

/**
 * The refusal of `--typo`, with what was most likely meant: an option of another command is said to be one
 * (`--concurrency: it is a contract option, not a serve one`); else the nearest option of this command
 * (`did you mean --seed?`); else the nearest of another command's, said to be that command's.
 *
 * @example
 * unknownOption('seeed', CONTRACT_FLAGS, 'contract', {}); // 'unknown option --seeed; did you mean --seed?'
 */
export function unknownOption(
  typo: string,
  own: readonly FlagShape[],
  command: string,
  others: Readonly<Record<string, readonly FlagShape[]>>,
): string {
  const refusal = `unknown option --${typo}`;
  if (commandsWith(typo, others).length > 0) return `${refusal}: it is ${whose(typo, command, others)}`;
  const mine = nearest(
    typo,
    own.map((flag) => flag.name),
  );
  if (mine) return `${refusal}; did you mean --${mine}?`;
  const theirs = nearest(typo, [...new Set(Object.values(others).flatMap((flags) => flags.map((flag) => flag.name)))]);
  return theirs ? `${refusal}; did you mean --${theirs}? It is ${whose(theirs, command, others)}` : refusal;
}
