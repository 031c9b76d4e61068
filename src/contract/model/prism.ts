// The only importer of @stoplight/prism-http: its operations, its validators and their fp-ts Eithers
// stay behind this file, which hands the rest of the kit plain arrays.
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { targetView } from '../../spec/target-view.ts';

/** One finding of prism's response validation. */
export interface PrismDiagnostic {
  /** Where: `body` or `header`, then the path inside it, e.g. `['body', '3', 'id']`. */
  readonly path: readonly string[];
  readonly message: string;
  /** The JSON Schema keyword that failed (`type`, `format`, `minimum`...), when prism names one. */
  readonly keyword?: string;
  /** prism reports an undocumented status only as a warning; the kit grades it itself. */
  readonly prismSeverity: 'error' | 'warning';
}

/** A response, as the validator takes it. */
export interface ResponseToValidate {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Validates responses of the spec's operations (by operationId) with prism-http. */
export interface PrismValidator {
  validateResponse(operationId: string, response: ResponseToValidate): PrismDiagnostic[];
}

type PrismOperation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/**
 * Builds the validator of a server under test: it judges against {@link targetView} of `document`, so
 * what only the mock promises (`x-mock-only`, such as the shape of its `errors` member) binds no target.
 * prism resolves `$ref`s and mutates its input; the view is a fresh copy, so `document` stays untouched.
 */
export async function createPrismValidator(document: OpenAPIObject): Promise<PrismValidator> {
  const operations: PrismOperation[] = await getHttpOperationsFromSpec(targetView(document));
  const byId = new Map(operations.map((op) => [op.iid ?? op.id, op]));
  return {
    validateResponse(operationId, response) {
      const resource = byId.get(operationId);
      if (!resource) throw new Error(`prism knows no operation ${operationId}`);
      const result = validateOutput({
        resource,
        element: { statusCode: response.status, headers: { ...response.headers }, body: response.body },
      }) as { _tag: 'Left'; left: RawDiagnostic[] } | { _tag: 'Right' };
      if (result._tag === 'Right') return [];
      return result.left.map((d) => ({
        path: (d.path ?? []).map(String),
        message: d.message,
        ...(typeof d.code === 'string' ? { keyword: d.code } : {}),
        prismSeverity: d.severity === 0 ? 'error' : 'warning',
      }));
    },
  };
}

interface RawDiagnostic {
  readonly path?: readonly (string | number)[];
  readonly message: string;
  readonly code?: string | number;
  readonly severity: number;
}
