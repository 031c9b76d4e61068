import type { OpenAPIObject, ReferenceObject } from 'openapi3-ts/oas31';

// A local check rather than openapi3-ts's isReferenceObject: importing that module's runtime lengthens
// start-up, and the kit only needs its types.
const isReferenceObject = (value: object): value is ReferenceObject => '$ref' in value;

/**
 * Follows local `$ref`s (`#/components/...`) until a non-reference object is reached.
 * Only local references are supported: the kit's spec is one self-contained file.
 */
export function resolveRef<T extends object>(document: OpenAPIObject, value: T | ReferenceObject): T {
  let current: unknown = value;
  for (let hops = 0; isReferenceObject(current as object); hops += 1) {
    if (hops > 32) throw new Error(`reference cycle at ${(current as ReferenceObject).$ref}`);
    current = pointerGet(document, (current as ReferenceObject).$ref);
  }
  return current as T;
}

/** Reads a JSON pointer of the form `#/a/b~1c` from `document`. */
export function pointerGet(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported, got ${ref}`);
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !(key in node)) throw new Error(`unresolvable reference ${ref}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The component name a `#/components/schemas/Name` reference points at, if it is one. */
export function schemaRefName(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return undefined;
  const match = /^#\/components\/schemas\/([^/]+)$/.exec(String((value as ReferenceObject).$ref));
  return match?.[1];
}
