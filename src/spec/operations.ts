import type {
  ExampleObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ResponseObject,
  SchemaObject,
  SecuritySchemeObject,
  HeaderObject,
} from 'openapi3-ts/oas31';
import { type CollectionSpec, collectionOf, type OrderKey, orderOf } from './collection-spec.ts';
import { isProbe } from './probe-operations.ts';
import { resolveRef, schemaRefName } from './resolve-ref.ts';

/** A query parameter of an operation, with its `$ref`s resolved. */
export interface QueryParameter {
  readonly name: string;
  readonly required: boolean;
  readonly schema: SchemaObject;
  /** The `x-assumed` reason when the parameter is our assumption rather than the interface's. */
  readonly assumed?: string;
  /** `x-empty-means-absent`: the parameter sent empty means what leaving it out means (an empty search, no filter). */
  readonly emptyMeansAbsent?: boolean;
}

/** A documented response of an operation. */
export interface ResponseSpec {
  readonly status: string;
  readonly contentTypes: readonly string[];
  /** The names of the headers it documents, as written in the spec. */
  readonly headers: readonly string[];
  /** JSON pointer of each media type's body schema (`#/components/responses/BadRequest/content/...`). */
  readonly schemaAt: Readonly<Record<string, string>>;
  /** Its problem type and title, read from the example of its `application/problem+json` body. */
  readonly problem?: { readonly type: string; readonly title: string };
}

/** What the kit needs to know about one operation, read from the spec. */
export interface Operation {
  readonly operationId: string;
  readonly method: string;
  /** The OpenAPI path template, e.g. `/alert`. */
  readonly path: string;
  /** Name of the component schema of the 200 array's items (`Alert`, `Sensor`). */
  readonly itemSchema: string;
  readonly queryParameters: readonly QueryParameter[];
  /** Header carrying the API key, when the operation is secured by an apiKey-in-header scheme. */
  readonly apiKeyHeader?: string;
  readonly responses: readonly ResponseSpec[];
  /** The listing's sort keys (`x-order`); empty when it promises no order. */
  readonly order: readonly OrderKey[];
  /** How the mock names and generates its records (`x-collection`, defaulted). */
  readonly collection: CollectionSpec;
  /**
   * The 200 answer's pagination headers, lower-cased, as the spec marks them (`x-pagination: total-count` and
   * `links` on the header): absent when the spec documents none.
   */
  readonly paging: { readonly count?: string; readonly links?: string };
}

/** The extension that marks a response header as the listing's count or its page links. */
export const PAGINATION = 'x-pagination';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The spec's listings: its operations read with GET (every route the mock serves, and the kit checks).
 *
 * @example
 * for (const listing of listListings(document)) console.log(listing.operationId, listing.path);
 */
export const listListings = (document: OpenAPIObject): Operation[] => listOperations(document).filter((op) => op.method === 'get');

/**
 * Lists the spec's operations that return a JSON array of component records, the only kind the
 * interface has; the mock's health probes (`x-probe`, see listProbes) are no listings and are left out.
 * Throws when an operation is shaped otherwise, so a spec edit cannot be half-served.
 */
export function listOperations(document: OpenAPIObject): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation || isProbe(operation)) continue;
      const id = operation.operationId ?? `${method.toUpperCase()} ${path}`;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolveRef<ParameterObject>(document, p));
      const apiKeyHeader = apiKeyHeaderOf(document, operation);
      operations.push({
        operationId: id,
        method,
        path,
        itemSchema: itemSchemaOf(document, operation, id),
        queryParameters: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({
            name: p.name,
            required: p.required === true,
            schema: resolveRef<SchemaObject>(document, p.schema ?? {}),
            ...(typeof p['x-assumed'] === 'string' ? { assumed: p['x-assumed'] } : {}),
            ...(p['x-empty-means-absent'] === true ? { emptyMeansAbsent: true } : {}),
          })),
        ...(apiKeyHeader ? { apiKeyHeader } : {}),
        responses: Object.entries(operation.responses ?? {}).map(([status, ref]) => {
          const response = resolveRef<ResponseObject>(document, ref);
          const problem = problemOf(document, response);
          // Where the response lives: its $ref's target, or in place under the operation.
          const at = typeof ref.$ref === 'string' ? ref.$ref : `#/paths/${pointerSegment(path)}/${method}/responses/${status}`;
          const contentTypes = Object.keys(response.content ?? {});
          const schemaAt = Object.fromEntries(contentTypes.map((type) => [type, `${at}/content/${pointerSegment(type)}/schema`]));
          const headers = Object.keys(response.headers ?? {});
          return { status, contentTypes, headers, schemaAt, ...(problem ? { problem } : {}) };
        }),
        order: orderOf(operation, id),
        collection: collectionOf(operation, path, id),
        paging: pagingOf(document, operation),
      });
    }
  }
  for (const member of ['key', 'stream'] as const) {
    const seen = new Map<unknown, string>();
    for (const op of operations) {
      const other = seen.get(op.collection[member]);
      if (other) throw new Error(`operations ${other} and ${op.operationId} share x-collection ${member} ${op.collection[member]}`);
      seen.set(op.collection[member], op.operationId);
    }
  }
  return operations;
}

/** The headers the operations' apiKey-in-header schemes name, each once (`x-api-key`). */
export const apiKeyHeaders = (operations: readonly Operation[]): string[] => [
  ...new Set(operations.flatMap((op) => (op.apiKeyHeader ? [op.apiKeyHeader] : []))),
];

/** The headers of the 200 answer marked as its count and its page links. */
function pagingOf(document: OpenAPIObject, operation: OperationObject): Operation['paging'] {
  const ok = operation.responses?.['200'];
  const headers = ok ? (resolveRef<ResponseObject>(document, ok).headers ?? {}) : {};
  const marked = (role: string) =>
    Object.entries(headers)
      .find(([, header]) => (resolveRef<HeaderObject>(document, header) as Record<string, unknown>)[PAGINATION] === role)?.[0]
      .toLowerCase();
  const count = marked('total-count');
  const links = marked('links');
  return { ...(count ? { count } : {}), ...(links ? { links } : {}) };
}

/** A JSON pointer segment (RFC 6901). */
const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The type and title of the example problem document of a response, if it shows one. */
function problemOf(document: OpenAPIObject, response: ResponseObject): ResponseSpec['problem'] {
  const media = response.content?.['application/problem+json'];
  if (!media) return undefined;
  const first = Object.values(media.examples ?? {})[0];
  const example: unknown = media.example ?? (first ? resolveRef<ExampleObject>(document, first).value : undefined);
  if (typeof example !== 'object' || example === null) return undefined;
  const { type = 'about:blank', title } = example as { type?: unknown; title?: unknown };
  return typeof type === 'string' && typeof title === 'string' ? { type, title } : undefined;
}

function itemSchemaOf(document: OpenAPIObject, operation: OperationObject, id: string): string {
  const ok = operation.responses?.['200'];
  const schema = ok && resolveRef<ResponseObject>(document, ok).content?.['application/json']?.schema;
  const array = schema && resolveRef<SchemaObject>(document, schema);
  const name = array?.type === 'array' ? schemaRefName(array.items) : undefined;
  if (!name) throw new Error(`operation ${id}: 200 application/json must be an array of a component schema`);
  return name;
}

function apiKeyHeaderOf(document: OpenAPIObject, operation: OperationObject): string | undefined {
  for (const requirement of operation.security ?? document.security ?? []) {
    for (const name of Object.keys(requirement)) {
      const scheme = document.components?.securitySchemes?.[name];
      const resolved = scheme && resolveRef<SecuritySchemeObject>(document, scheme);
      if (resolved?.type === 'apiKey' && resolved.in === 'header' && resolved.name) return resolved.name;
    }
  }
  return undefined;
}

/** An OpenAPI path as Hono routes it: `/alert/{id}` becomes `/alert/:id`. */
export const honoPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');
