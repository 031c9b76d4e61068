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
  // Each parameter's schema is the same object on every request: found by it, stringified once.
  const bySchema = new WeakMap<object, ValidateFunction>();
  const validatorOf = (schema: object): ValidateFunction => {
    let validate = bySchema.get(schema);
    if (!validate) {
      const key = JSON.stringify(schema);
      validate = validators.get(key) ?? missing(`schema ${key}`);
      bySchema.set(schema, validate);
    }
    return validate;
  };
  return {
    has: () => false,
    validate: (schema) => missing(`component schema ${schema}`),
    validateAt: (pointer) => missing(pointer),
    check(schema, value, basePath = '$') {
      const validate = validatorOf(schema);
      return validate(value) ? [] : (validate.errors ?? []).map((error) => toIssue(error, basePath));
    },
  };
}
