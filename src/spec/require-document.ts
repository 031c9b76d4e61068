import type { OpenAPIObject } from 'openapi3-ts/oas31';

/**
 * `value` when it is an OpenAPI document; else a TypeError that says what `caller` takes, and how to get it
 * from what was passed: `loadSpec()` itself, the natural guess, would otherwise give an empty answer.
 *
 * @example
 * export function generateDataset(document: OpenAPIObject) {
 *   requireDocument(document, 'generateDataset');
 * }
 */
export function requireDocument(value: unknown, caller: string): OpenAPIObject {
  if (typeof value === 'object' && value !== null && typeof (value as { openapi?: unknown }).openapi === 'string')
    return value as OpenAPIObject;
  const loaded = typeof value === 'object' && value !== null && 'document' in value && 'source' in value;
  throw new TypeError(
    loaded
      ? `${caller} takes the OpenAPI document, not what loadSpec() returns: pass loadSpec().document`
      : `${caller} takes the OpenAPI document (loadSpec().document); got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? `an object without "openapi" (keys: ${Object.keys(value).slice(0, 5).join(', ') || 'none'})` : typeof value}`,
  );
}
