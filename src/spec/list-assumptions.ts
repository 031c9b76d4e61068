import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { requireDocument } from './require-document.ts';

/** A decision the spec takes where the interface document is silent. */
export interface Assumption {
  /** JSON pointer of the object carrying `x-assumed`, e.g. `#/components/parameters/page`. */
  readonly pointer: string;
  /** The one-line reason given in the spec. */
  readonly reason: string;
}

/** Every `x-assumed` in the document, in document order. *
 * @example
 * for (const { pointer, reason } of listAssumptions(loadSpec().document)) console.log(pointer, reason);
 */
export function listAssumptions(document: OpenAPIObject): Assumption[] {
  requireDocument(document, 'listAssumptions');
  const found: Assumption[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-assumed' && typeof value === 'string') found.push({ pointer: pointer || '#', reason: value });
      else walk(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  };
  walk(document, '#');
  return found;
}
