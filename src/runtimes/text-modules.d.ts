// Text a bundler hands over as a string (wrangler's Text rule in wrangler.toml): the spec on Workers.
declare module '*.yaml' {
  const text: string;
  export default text;
}
