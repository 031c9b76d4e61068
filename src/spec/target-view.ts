import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { pointerGet } from './resolve-ref.ts';

/** The extension marking what only the mock promises; its value is a one-line reason. */
export const MOCK_ONLY = 'x-mock-only';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` is an object that carries the {@link MOCK_ONLY} marker. */
const isMockOnly = (value: unknown): boolean => isObject(value) && MOCK_ONLY in value;

/**
 * Members whose value is a map from names chosen by the author (property names, status codes, media
 * types, component names...) to objects of the spec: a marked entry is left out of the map, and an
 * entry is walked whatever its name (a property may be called `default` or `example`).
 */
const NAMED_MAPS = new Set([
  'paths',
  'webhooks',
  'callbacks',
  'responses',
  'headers',
  'content',
  'encoding',
  'links',
  'examples',
  'schemas',
  'parameters',
  'requestBodies',
  'securitySchemes',
  'pathItems',
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
]);

/** Members whose value is data rather than spec (examples, defaults, enumerations): copied as they are. */
const DATA = new Set(['example', 'value', 'default', 'const', 'enum']);

/** Whether the member `key` holds data or an extension's value, which the view copies as it is. */
const isData = (key: string, value: Json): boolean => key.startsWith('x-') || DATA.has(key) || (key === 'examples' && Array.isArray(value));

/** Subschema lists that a removed element may leave empty, which JSON Schema does not allow. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

/**
 * The spec as it applies to a server under test: `document` without what only the mock promises. Every
 * object carrying `x-mock-only` is left out wherever it sits: the member, map entry (a component, a
 * response, a property...) or list element (a parameter, an allOf subschema...) holding it is removed, and
 * an allOf, anyOf or oneOf left empty is removed too (it then asks nothing). A marked schema property
 * is also dropped from its parent's `required` (and, where the parent admits no other members, kept as an
 * unconstrained `{}` so that the member stays allowed). Data (examples, defaults, enums) and extension
 * values are copied untouched. Pure: returns a copy and never mutates `document`.
 *
 * Throws when the view would leave a `$ref` pointing at something removed: whatever refers to a marked
 * object must be marked too, so that the view is a whole document.
 */
export function targetView(document: OpenAPIObject): OpenAPIObject {
  if (isMockOnly(document)) throw new Error(`${MOCK_ONLY} cannot mark the document itself`);
  const view = walkObject(document as unknown as JsonObject);
  for (const { ref, at } of references(view)) {
    if (!resolves(view, ref) && resolves(document, ref)) {
      throw new Error(`${at}: ${ref} points at an object marked ${MOCK_ONLY}; mark what refers to it too`);
    }
  }
  return view as unknown as OpenAPIObject;
}

function walkValue(value: Json): Json {
  if (Array.isArray(value)) return value.filter((item) => !isMockOnly(item)).map(walkValue);
  return isObject(value) ? walkObject(value) : value;
}

function walkObject(node: JsonObject): JsonObject {
  const copy: JsonObject = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (isData(key, value)) copy[key] = structuredClone(value);
    // A marked subschema (items, not, a media type's schema...) asks nothing of a target: no member at all.
    else if (isMockOnly(value)) continue;
    else if (NAMED_MAPS.has(key) && isObject(value)) {
      const map: JsonObject = {};
      for (const [name, entry] of Object.entries(value)) {
        if (isMockOnly(entry)) {
          if (key === 'properties') dropped.push(name);
        } else map[name] = walkValue(entry);
      }
      copy[key] = map;
    } else {
      const walked = walkValue(value);
      // allOf: [] and the like are invalid; with every element removed, the keyword asks nothing.
      if (SCHEMA_LISTS.has(key) && Array.isArray(walked) && walked.length === 0 && Array.isArray(value) && value.length > 0) continue;
      copy[key] = walked;
    }
  }
  if (dropped.length > 0) {
    if (Array.isArray(copy.required)) copy.required = copy.required.filter((name) => !dropped.includes(String(name)));
    const closed = [copy.additionalProperties, copy.unevaluatedProperties].some(
      (rule) => rule !== undefined && rule !== true && !(isObject(rule) && Object.keys(rule).length === 0),
    );
    if (closed) for (const name of dropped) (copy.properties as JsonObject)[name] = {};
  }
  return copy;
}

/** Every `$ref` of the spec (not of its data), with the JSON pointer of the object holding it. */
function references(node: Json, at = '#', named = false): { ref: string; at: string }[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => references(item, `${at}/${i}`));
  if (!isObject(node)) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const where = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (named) return references(value, where);
    if (key === '$ref' && typeof value === 'string') return [{ ref: value, at }];
    if (isData(key, value)) return [];
    return references(value, where, NAMED_MAPS.has(key) && isObject(value));
  });
}

function resolves(document: unknown, ref: string): boolean {
  if (!ref.startsWith('#')) return true;
  if (ref === '#') return true;
  try {
    pointerGet(document, ref);
    return true;
  } catch {
    return false;
  }
}
