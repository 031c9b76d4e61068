import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { requireDocument } from './require-document.ts';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** One way a value fails its schema. */
export interface SchemaIssue {
  /** JSON path of the offending value, e.g. `$[3].created_at`. */
  readonly path: string;
  /** Ajv's own message, e.g. `must match format "uuid"` (plus the name of an additional property). */
  readonly message: string;
  /** The JSON Schema keyword that failed (`type`, `format`, `minimum`...). */
  readonly keyword: string;
  /** The offending value's place as path segments below the validated value, e.g. `['3', 'created_at']`. */
  readonly at: readonly string[];
}

/** Validates values against the spec's component schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses). */
export interface SchemaValidator {
  /** Issues of `value` against `#/components/schemas/{schema}`; empty when it conforms. */
  validate(schema: string, value: unknown, basePath?: string): SchemaIssue[];
  /** Issues of `value` against an inline schema object (compiled once per object). */
  check(schema: object, value: unknown, basePath?: string): SchemaIssue[];
  /** Issues of `value` against the schema at a JSON pointer into the document (`#/paths/~1alert/...`). */
  validateAt(pointer: string, value: unknown, basePath?: string): SchemaIssue[];
  /** Whether `schema` names a component schema. */
  has(schema: string): boolean;
}

const DOCUMENT_ID = 'tempmon:openapi';

/**
 * Compiles the spec's component schemas once, on first use of each. Formats (uuid, date-time,
 * uri-reference) are checked, since they are part of the contract.
 *
 * @example
 * const issues = createSchemaValidator(loadSpec().document).validate('Alert', record); // [] when valid
 */
export function createSchemaValidator(document: OpenAPIObject): SchemaValidator {
  requireDocument(document, 'createSchemaValidator');
  // strict: false because OpenAPI adds keywords (example, x-assumed...) that JSON Schema does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The whole document, so that a response's schema is reached by its pointer, $refs and all.
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  const names = new Set(Object.keys(document.components?.schemas ?? {}));
  const inline = new WeakMap<object, ValidateFunction>();
  const run = (validate: ValidateFunction, value: unknown, basePath: string): SchemaIssue[] =>
    validate(value) ? [] : (validate.errors ?? []).map((error) => toIssue(error, basePath));

  return {
    has: (schema) => names.has(schema),
    validate(schema, value, basePath = '$') {
      let validate = compiled.get(schema);
      if (!validate) {
        if (!names.has(schema)) throw new Error(`no component schema named ${schema}`);
        validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${schema}` });
        compiled.set(schema, validate);
      }
      return run(validate, value, basePath);
    },
    validateAt(pointer, value, basePath = '$') {
      let validate = compiled.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
        compiled.set(pointer, validate);
      }
      return run(validate, value, basePath);
    },
    check(schema, value, basePath = '$') {
      let validate = inline.get(schema);
      if (!validate) {
        validate = ajv.compile(schema);
        inline.set(schema, validate);
      }
      return run(validate, value, basePath);
    },
  };
}

/** An Ajv error as an issue (also of validators compiled ahead of time: src/runtimes/precompiled-validator.ts). */
export function toIssue(error: ErrorObject, basePath: string): SchemaIssue {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  const path = segments.reduce(
    (acc, segment) =>
      /^\d+$/.test(segment)
        ? `${acc}[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${acc}.${segment}`
          : `${acc}[${JSON.stringify(segment)}]`,
    basePath,
  );
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return { path, message: `${error.message ?? 'is invalid'}${extra}`, keyword: error.keyword, at: segments };
}
