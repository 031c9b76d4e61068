/** The help of the `--spec FILE` option, the same in every command that takes it. No node: import. */
export const SPEC_OPTION_HELP = "another copy of the spec (default: the kit's spec/openapi.yaml)";
