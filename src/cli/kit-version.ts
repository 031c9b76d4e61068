import { createRequire } from 'node:module';

/**
 * The version in the package's own package.json (exported as `tempmon-kit/package.json`), read when asked.
 *
 * @example
 * kitVersion(); // '0.1.0'
 */
export const kitVersion = (): string => (createRequire(import.meta.url)('tempmon-kit/package.json') as { version: string }).version;
