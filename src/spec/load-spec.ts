import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { parse } from 'yaml';

/** Path of the contract shipped with the kit: `spec/openapi.yaml`. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

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
 */
export function loadSpec(path: string = DEFAULT_SPEC_PATH): LoadedSpec {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SpecError(`cannot read spec ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let document: unknown;
  try {
    document = parse(source);
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
