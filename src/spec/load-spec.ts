import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { systemError } from '../shared/system-error.ts';

/**
 * A file of the kit, by its path from the repository's root. Where modules have no file URL (a bundle on
 * Cloudflare Workers, which gets its spec passed in: src/runtimes/worker-entry.ts), the relative path.
 */
const kitFile = (path: string): string => {
  try {
    return fileURLToPath(new URL(`../../${path}`, import.meta.url));
  } catch {
    return path;
  }
};

/** Path of the contract shipped with the kit: `spec/openapi.yaml`. */
export const DEFAULT_SPEC_PATH = kitFile('spec/openapi.yaml');

/**
 * The kit's spec parsed to JSON by `npm run build`. Used only while it is at least as new as the YAML,
 * which stays the source of truth: it spares start-up loading and running the YAML parser.
 */
const SPEC_CACHE_PATH = kitFile('dist/openapi.json');

const mtime = (path: string) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/** The YAML parser, loaded only when a spec must really be parsed. */
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

/** A parsed OpenAPI document together with the text it came from. */
export interface LoadedSpec {
  /** The parsed document; `$ref`s are left in place (see `resolveRef`). */
  readonly document: OpenAPIObject;
  /** The YAML text as read, served verbatim at /openapi.yaml. */
  readonly source: string;
  /** Where it was read from. */
  readonly path: string;
}

/** Thrown when a spec file cannot be read or is not an OpenAPI 3.1 document. */
export class SpecError extends Error {
  override readonly name = 'SpecError';
}

/**
 * Reads and parses an OpenAPI 3.1 document (YAML or JSON).
 * @param path defaults to the kit's own `spec/openapi.yaml`.
 *
 * @example
 * const { document } = loadSpec(); // the kit's spec/openapi.yaml; loadSpec('my-spec.yaml') for another copy
 */
export function loadSpec(path: string = DEFAULT_SPEC_PATH): LoadedSpec {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SpecError(`cannot read spec ${path}: ${systemError(error)}`);
  }
  let document: unknown;
  try {
    const cached = path === DEFAULT_SPEC_PATH ? mtime(SPEC_CACHE_PATH) : undefined;
    const fresh = cached !== undefined && cached >= (mtime(path) ?? Number.POSITIVE_INFINITY);
    document = fresh ? JSON.parse(readFileSync(SPEC_CACHE_PATH, 'utf8')) : parseYaml(source);
  } catch (error) {
    throw new SpecError(`spec ${path} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isOpenApi31(document)) {
    throw new SpecError(`spec ${path} is not an OpenAPI 3.1 document (no "openapi: 3.1.x" and "paths")`);
  }
  return { document, source, path };
}

function isOpenApi31(value: unknown): value is OpenAPIObject {
  if (typeof value !== 'object' || value === null) return false;
  const { openapi, paths } = value as Record<string, unknown>;
  return typeof openapi === 'string' && openapi.startsWith('3.1') && typeof paths === 'object' && paths !== null;
}
