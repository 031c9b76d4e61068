// The shape of one command-line flag: what the parser, the help text and the suggestions all read.

/** A flag as the parser needs it. */
export interface FlagShape {
  /** Without its dashes: `api-key`. */
  readonly name: string;
  /** What follows the flag (`N`, `FILE`); absent for a switch. */
  readonly value?: string;
  /** Given more than once: every value is kept. */
  readonly multiple?: true;
  /** A one-letter alias: `h` for `-h`. */
  readonly short?: string;
}
