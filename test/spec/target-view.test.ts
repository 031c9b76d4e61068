import type { OpenAPIObject, ResponseObject } from 'openapi3-ts/oas31';
import { describe, expect, it } from 'vitest';
import { MOCK_ONLY, targetView } from '../../src/spec/target-view.ts';
import { spec } from '../helpers.ts';

/** Every JSON pointer of `node`'s leaves and objects, to compare two documents member by member. */
function pointers(node: unknown, at = '#'): string[] {
  if (typeof node !== 'object' || node === null) return [at];
  const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
  return [at, ...entries.flatMap(([key, value]) => pointers(value, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`))];
}

const doc = (extra: Record<string, unknown>): OpenAPIObject =>
  ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, ...extra }) as OpenAPIObject;

describe('targetView of the kit spec', () => {
  const view = targetView(spec.document);

  it('leaves out exactly the marked objects (Problem.errors, ParameterError, the probes...) and what lies under them', () => {
    const before = new Set(pointers(spec.document));
    const after = new Set(pointers(view));
    const removed = [...before].filter((p) => !after.has(p));
    const marked = [...before].filter((p) => {
      const value = p
        .split('/')
        .slice(1)
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key.replaceAll('~1', '/').replaceAll('~0', '~')], spec.document);
      return typeof value === 'object' && value !== null && MOCK_ONLY in value;
    });
    expect(marked).toEqual(
      expect.arrayContaining(['#/components/schemas/Problem/properties/errors', '#/components/schemas/ParameterError', '#/paths/~1readyz']),
    );
    // Nothing is added, every marked object is removed, and everything removed lies under a marked object.
    expect([...after].filter((p) => !before.has(p))).toEqual([]);
    expect(marked.filter((p) => after.has(p))).toEqual([]);
    expect(removed.filter((p) => !marked.some((m) => p === m || p.startsWith(`${m}/`)))).toEqual([]);
  });

  it('keeps every RFC 9457 member of Problem, and the mock example of the 400 as it is', () => {
    const problem = view.components?.schemas?.Problem as { properties: Record<string, unknown>; additionalProperties: unknown };
    expect(Object.keys(problem.properties)).toEqual(['type', 'title', 'status', 'detail', 'instance']);
    expect(problem.additionalProperties).toBe(true);
    // Its headers (Preference-Applied, CORS) are the mock's own: the view keeps none of them.
    const { headers: _, ...badRequest } = spec.document.components!.responses!.BadRequest as ResponseObject;
    expect(view.components?.responses?.BadRequest).toEqual({ ...badRequest, headers: {} });
  });

  it('does not mutate its input and shares no object with it', () => {
    const snapshot = structuredClone(spec.document);
    const again = targetView(spec.document);
    expect(spec.document).toEqual(snapshot);
    expect(again).toEqual(view);
    (again.components!.schemas!.Problem as { properties: Record<string, unknown> }).properties.extra = {};
    expect(spec.document).toEqual(snapshot);
    expect(view.components?.schemas?.Alert).not.toBe(spec.document.components?.schemas?.Alert);
  });
});

describe('targetView on its own', () => {
  it('is the same document when nothing is marked', () => {
    const plain = doc({ components: { schemas: { A: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } } });
    expect(targetView(plain)).toEqual(plain);
  });

  it('drops a marked property from properties and required, at any depth, whatever its name', () => {
    const input = doc({
      components: {
        schemas: {
          A: {
            type: 'object',
            required: ['keep', 'default', 'inner'],
            properties: {
              keep: { type: 'string' },
              default: { type: 'string', [MOCK_ONLY]: 'mock' },
              inner: {
                type: 'object',
                required: ['x', 'y'],
                properties: { x: { type: 'integer' }, y: { type: 'integer', [MOCK_ONLY]: 'mock' } },
              },
            },
          },
        },
      },
    });
    expect(targetView(input).components?.schemas?.A).toEqual({
      type: 'object',
      required: ['keep', 'inner'],
      properties: { keep: { type: 'string' }, inner: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } } },
    });
  });

  it('keeps a marked member of a closed object as unconstrained, so that it stays allowed', () => {
    const input = doc({
      components: {
        schemas: {
          A: {
            type: 'object',
            additionalProperties: false,
            properties: { a: { type: 'string' }, m: { type: 'array', [MOCK_ONLY]: 'mock' } },
          },
        },
      },
    });
    expect(targetView(input).components?.schemas?.A).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'string' }, m: {} },
    });
  });

  it('drops marked components, responses, parameters and list elements', () => {
    const input = doc({
      paths: {
        '/x': {
          get: {
            parameters: [
              { name: 'a', in: 'query' },
              { name: 'b', in: 'query', [MOCK_ONLY]: 'mock' },
            ],
            responses: { '200': { description: 'ok' }, '418': { description: 'teapot', [MOCK_ONLY]: 'mock' } },
          },
        },
      },
      components: {
        schemas: {
          Kept: { type: 'string' },
          Gone: { type: 'string', [MOCK_ONLY]: 'mock' },
          Any: { allOf: [{ [MOCK_ONLY]: 'mock', minLength: 1 }] },
        },
      },
    });
    const view = targetView(input);
    expect(view.paths?.['/x']?.get?.parameters).toEqual([{ name: 'a', in: 'query' }]);
    expect(Object.keys(view.paths?.['/x']?.get?.responses ?? {})).toEqual(['200']);
    expect(view.components?.schemas).toEqual({ Kept: { type: 'string' }, Any: {} });
  });

  it('drops a marked single subschema, such as a media type schema or items', () => {
    const input = doc({
      paths: {
        '/x': {
          get: {
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', [MOCK_ONLY]: 'mock' } } } },
            },
          },
        },
      },
      components: { schemas: { L: { type: 'array', items: { type: 'string', [MOCK_ONLY]: 'mock' }, maxItems: 3 } } },
    });
    const view = targetView(input);
    expect(view.paths?.['/x']?.get?.responses?.['200']).toEqual({ description: 'ok', content: { 'application/json': {} } });
    expect(view.components?.schemas?.L).toEqual({ type: 'array', maxItems: 3 });
  });

  it('copies data (examples, defaults, enums) and extension values untouched', () => {
    const marked = { [MOCK_ONLY]: 'data, not spec' };
    const input = doc({
      'x-vendor': { nested: marked },
      components: {
        schemas: {
          A: {
            type: 'object',
            default: marked,
            enum: [marked],
            examples: [marked],
            properties: { example: { type: 'object', example: marked } },
          },
        },
        examples: { E: { value: [marked] } },
      },
    });
    expect(targetView(input)).toEqual(input);
  });

  it('refuses to leave a reference to a removed object', () => {
    const input = doc({
      components: {
        schemas: {
          Gone: { type: 'string', [MOCK_ONLY]: 'mock' },
          User: { type: 'object', properties: { g: { $ref: '#/components/schemas/Gone' } } },
        },
      },
    });
    expect(() => targetView(input)).toThrow(
      '#/components/schemas/User/properties/g: #/components/schemas/Gone points at an object marked x-mock-only',
    );
    const both = structuredClone(input) as unknown as { components: { schemas: { User: { properties: { g: Record<string, unknown> } } } } };
    both.components.schemas.User.properties.g[MOCK_ONLY] = 'mock';
    expect(targetView(both as unknown as OpenAPIObject).components?.schemas).toEqual({ User: { type: 'object', properties: {} } });
  });
});
