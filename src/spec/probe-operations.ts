import type { OpenAPIObject, OperationObject } from 'openapi3-ts/oas31';

/** The extension naming an operation a health probe of the mock's own, not a listing: its value is the kind. */
export const PROBE = 'x-probe';

/** `liveness`: the process answers. `readiness`: every request can be answered now (the search index is built). */
export type ProbeKind = 'liveness' | 'readiness';

/** A health probe the spec documents. */
export interface ProbeOperation {
  readonly operationId: string;
  readonly path: string;
  readonly kind: ProbeKind;
}

const KINDS: readonly string[] = ['liveness', 'readiness'] satisfies ProbeKind[];

/** Whether an operation is a probe (and so no listing: listOperations leaves it out). */
export const isProbe = (operation: OperationObject): boolean => operation[PROBE] !== undefined;

/**
 * Lists the spec's probes (GET operations marked `x-probe`). Throws on a probe of an unknown kind or
 * another method, so a spec edit cannot be half-served.
 */
export function listProbes(document: OpenAPIObject): ProbeOperation[] {
  const probes: ProbeOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || operation === null || !isProbe(operation as OperationObject)) continue;
      const { operationId, [PROBE]: kind } = operation as OperationObject;
      const id = operationId ?? `${method.toUpperCase()} ${path}`;
      if (method !== 'get') throw new Error(`operation ${id}: a probe (${PROBE}) must be a GET`);
      if (typeof kind !== 'string' || !KINDS.includes(kind))
        throw new Error(`operation ${id}: ${PROBE} must be one of ${KINDS.join(', ')}`);
      probes.push({ operationId: id, path, kind: kind as ProbeKind });
    }
  }
  return probes;
}
