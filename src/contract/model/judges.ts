// What judges answers against the spec, built once for the kit and for the proxy alike.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { createSchemaValidator, type SchemaValidator } from '../../spec/schema-validator.ts';
import { targetView } from '../../spec/target-view.ts';
import type { PrismValidator } from './prism.ts';

/** prism-http for headers, the spec's schemas for bodies and records: both as a server under test is held to them. */
export interface Judges {
  readonly prism: PrismValidator;
  readonly schemas: SchemaValidator;
}

/**
 * The judges of `document`. prism-http is loaded here, not at import: the public entry must not make every
 * importer pay for it.
 *
 * @example
 * const judges = await loadJudges(spec.document);
 * judges.schemas.validate(...);
 */
export async function loadJudges(document: OpenAPIObject): Promise<Judges> {
  const { createPrismValidator } = await import('./prism.ts');
  return { prism: await createPrismValidator(document), schemas: createSchemaValidator(targetView(document)) };
}
