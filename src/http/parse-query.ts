import type { QueryParameter } from '../spec/operations.ts';
import type { SchemaValidator } from '../spec/schema-validator.ts';
import type { ParameterError } from './problem.ts';

/** Parsed query values by parameter name, defaults applied; absent optional parameters are missing. */
export type QueryValues = Record<string, unknown>;

/** Either the parsed values or every parameter error found. */
export type QueryResult = { ok: true; values: QueryValues } | { ok: false; errors: ParameterError[] };

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Builds a parser for an operation's query parameters from their spec schemas: types, limits and
 * defaults all come from the spec, so editing it changes what the server accepts. Unknown parameters
 * are ignored (an assumption of the spec); a parameter given twice is an error, as is any value that
 * does not parse as its schema's type or violates its constraints.
 */
export function createQueryParser(parameters: readonly QueryParameter[], validator: SchemaValidator) {
  return (search: URLSearchParams): QueryResult => {
    const values: QueryValues = {};
    const errors: ParameterError[] = [];
    for (const parameter of parameters) {
      const raw = search.getAll(parameter.name);
      const fail = (detail: string) => errors.push({ in: 'query', name: parameter.name, detail });
      if (raw.length === 0) {
        if (parameter.required) fail('is required');
        else if (parameter.schema.default !== undefined) values[parameter.name] = parameter.schema.default;
        continue;
      }
      if (raw.length > 1) {
        fail(`must be given once (got ${raw.length} values)`);
        continue;
      }
      const parsed = coerce(parameter.schema.type, raw[0]!);
      if (!parsed.ok) {
        fail(`must be ${parsed.expected} (got ${quote(raw[0]!)})`);
        continue;
      }
      const issues = validator.check(parameter.schema, parsed.value);
      if (issues.length > 0) fail(`${issues.map((i) => i.message).join(', ')} (got ${quote(raw[0]!)})`);
      else values[parameter.name] = parsed.value;
    }
    return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
  };
}

function coerce(type: unknown, raw: string): { ok: true; value: unknown } | { ok: false; expected: string } {
  switch (type) {
    case 'integer':
      return INTEGER.test(raw) ? { ok: true, value: Number(raw) } : { ok: false, expected: 'an integer' };
    case 'number':
      return NUMBER.test(raw) ? { ok: true, value: Number(raw) } : { ok: false, expected: 'a number' };
    case 'boolean':
      return raw === 'true' || raw === 'false' ? { ok: true, value: raw === 'true' } : { ok: false, expected: 'true or false' };
    default:
      return { ok: true, value: raw };
  }
}

/** Quotes a client value for an error message, cut short so a huge value cannot bloat the answer. */
function quote(raw: string): string {
  return JSON.stringify(raw.length > 64 ? `${raw.slice(0, 64)}…` : raw);
}
