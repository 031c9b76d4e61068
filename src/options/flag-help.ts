import type { FlagShape } from './flag-shape.ts';

/** A flag with its help: one line, and further lines for a long one. */
export interface HelpedFlag extends FlagShape {
  readonly help: readonly string[];
}

/**
 * The Options block of a command's help: each flag with its value in a column `width` wide, then its help;
 * further lines of a long help start at that column.
 *
 * @example
 * flagHelp([{ name: 'port', value: 'N', help: ['port to listen on'] }], 24);
 * // '  --port N              port to listen on'
 */
export function flagHelp(flags: readonly HelpedFlag[], width: number): string {
  return flags
    .flatMap((flag) => {
      const left = `  ${flag.short ? `-${flag.short}, ` : ''}--${flag.name}${flag.value ? ` ${flag.value}` : ''}`.padEnd(width);
      const [first, ...more] = flag.help;
      return [`${left}${first}`, ...more.map((line) => `${' '.repeat(width)}${line}`)];
    })
    .join('\n');
}
