import type { ValidateFunction } from 'ajv';
import { type SchemaValidator, toIssue } from '../spec/schema-validator.ts';

/**
 * A SchemaValidator over validators Ajv compiled ahead of time (standalone code), for a runtime that
 * refuses `new Function` (Cloudflare Workers). Only `check` of a schema it holds is served (the mock
 * checks nothing else); its issues are Ajv's own, so a 400 reads as on Node.
 */
export function precompiledValidator(validators: ReadonlyMap<string, ValidateFunction>): SchemaValidator {
  const missing = (what: string): never => {
    throw new Error(`no validator compiled ahead of time for ${what}`);
  };
  return {
    has: () => false,
    validate: (schema) => missing(`component schema ${schema}`),
    validateAt: (pointer) => missing(pointer),
    check(schema, value, basePath = '$') {
      const key = JSON.stringify(schema);
      const validate = validators.get(key) ?? missing(`schema ${key}`);
      return validate(value) ? [] : (validate.errors ?? []).map((error) => toIssue(error, basePath));
    },
  };
}
